/**
 * Asks for a topic: for a new topic in a channel (c), or for where a message
 * being edited moves (Tab in the compose box): its topic, its channel (Tab
 * here switches to the channel field) and which messages move along
 * (propagate mode). Existing topics (or channels) matching what is typed are
 * listed; ↑/↓ pick one.
 */
import { Text } from "ink";
import { useEffect, useRef, useState } from "react";
import { topicKey } from "../../model/narrow.js";
import { topicRows } from "../../model/selectors.js";
import { t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { SendTarget } from "../../sync/account-handle.js";
import type { ActionContext } from "../app-context.js";
import { useFeatureContext } from "../contexts.js";
import { cleanTyped } from "../compose-editor.js";
import { composeLabel, topicProblem } from "../compose-rules.js";
import { useRefState } from "../hooks/use-ref-state.js";
import { useKeypress } from "../hooks/use-keypress.js";
import type { Keymap } from "../keymap.js";
import { typedText } from "../keys.js";
import { useTheme } from "../theme.js";
import type { EditingState } from "../ui-state.js";
import { RowMark } from "../components/RowMark.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

type PropagateMode = NonNullable<EditingState["propagateMode"]>;
export const PROPAGATE_MODES: Array<{ mode: PropagateMode; label: string }> = [
  { mode: "change_one", label: "only this message" },
  { mode: "change_later", label: "this and later messages" },
  { mode: "change_all", label: "every message of the topic" },
];

/** A one-line text field whose value lives in a ref (fast typing loses nothing). */
export function useLineInput(initial = "") {
  const value = useRef(initial);
  const [, setTick] = useState(0);
  const set = (v: string) => {
    value.current = v;
    setTick((t) => t + 1);
  };
  return {
    value,
    set,
    /** Handles an editing key (the keymap's "edit" scope, the cursor always at the end); false for keys that are not edits. */
    key(name: string, input: string, keymap: Keymap): boolean {
      const v = value.current;
      const action = keymap.action("edit", name);
      if (action === "edit.backspace") set([...v].slice(0, -1).join(""));
      else if (action === "edit.deleteWordBack") set(v.replace(/\s*\S*$/, ""));
      else if (action === "edit.killToStart") set("");
      else {
        const typed = typedText(name, input);
        if (typed === undefined) return false;
        set(v + cleanTyped(typed).replace(/\n/g, " "));
      }
      return true;
    },
  };
}


export interface TopicPromptProps {
  channelId: number;
  /** Editing: where the message is now (topic; channelId is where it is) and the mode chosen so far. */
  editing?: { topic: string; propagateMode: PropagateMode };
  /** Called after the popup closed, with the context of that moment (and, editing, the channel chosen). */
  onDone: (topic: string, propagateMode: PropagateMode, ctx: ActionContext, channelId: number) => void;
  close: () => void;
}

/** Subscribed, unarchived channels whose name contains what is typed, by name. */
function channelChoices(ctx: ActionContext, typed: string, room: number): Array<{ id: number; name: string }> {
  const q = typed.trim().toLowerCase().replace(/^#/, "");
  return [...ctx.store.channels.values()]
    .filter((c) => !c.is_archived && (!q || c.name.toLowerCase().includes(q)))
    .map((c) => ({ id: c.stream_id, name: c.name }))
    .sort((a, b) => a.name.localeCompare(b.name))
    .slice(0, room);
}

export function TopicPrompt({ channelId: startChannel, editing, onDone, close }: TopicPromptProps) {
  const ctx = useFeatureContext();
  const theme = useTheme();
  const { width, height } = usePopupSize();
  const input = useLineInput(editing?.topic ?? "");
  const channelInput = useLineInput("");
  const [field, setField] = useRefState<"topic" | "channel">("topic");
  const [channel, setChannel] = useRefState(startChannel);
  const [pick, setPick] = useRefState(-1);
  const [mode, setMode] = useRefState<PropagateMode>(editing?.propagateMode ?? "change_one");
  const [error, setError] = useState<string | undefined>();
  const channelId = channel();
  useEffect(() => void ctx.account.actions.fetchTopics(channelId), [ctx.account, channelId]);

  const room = Math.max(1, height - (editing ? 10 : 7));
  /** What is typed, the matching topics (or channels), and the topic chosen — from the refs, so always current. */
  const current = () => {
    const typed = input.value.current;
    const q = typed.trim().toLowerCase();
    const topics = topicRows(ctx.store, channel())
      .filter((t) => !q || topicKey(t.topic).includes(q) || t.displayName.toLowerCase().includes(q))
      .slice(0, room);
    const channels = field() === "channel" ? channelChoices(ctx, channelInput.value.current, room) : [];
    const p = pick();
    const topic = (field() === "topic" && p >= 0 ? topics[p]?.topic : undefined) ?? typed.trim();
    const moved = editing !== undefined && (topic !== editing.topic || channel() !== startChannel);
    return { typed, topics, channels, topic, moved };
  };
  const { typed, topics, channels, moved } = current();

  /** The channel field: Enter (or Tab) takes the channel picked, else the first one listed, and goes back to the topic. */
  const takeChannel = () => {
    const { channels: list } = current();
    const chosen = list[Math.max(0, pick())];
    if (chosen) setChannel(chosen.id);
    channelInput.set("");
    setField("topic");
    setPick(-1);
    setError(undefined);
  };

  useKeypress(
    (name, text) => {
      if (field() === "channel") {
        const action = ctx.keymap.action("popup.topic.channel", name);
        if (action === "topicChannel.back") {
          channelInput.set("");
          setField("topic");
          setPick(-1);
        } else if (action === "topicChannel.take") takeChannel();
        else if (action === "topicChannel.down") setPick((p) => Math.min(current().channels.length - 1, p + 1));
        else if (action === "topicChannel.up") setPick((p) => Math.max(-1, p - 1));
        else if (channelInput.key(name, text, ctx.keymap)) setPick(-1);
        return true;
      }
      const action = ctx.keymap.action("popup.topic", name);
      if (action === "topic.cancel") close();
      else if (action === "topic.accept") {
        const now = current();
        const register = ctx.account.registerInfo();
        const problem = now.moved || !editing ? topicProblem(ctx.store, channel(), now.topic, register) : undefined;
        if (problem) setError(problem);
        else {
          close();
          onDone(now.topic, mode(), ctx, channel());
        }
      } else if (action === "topic.down") setPick((p) => Math.min(current().topics.length - 1, p + 1));
      else if (action === "topic.up") setPick((p) => Math.max(-1, p - 1));
      else if (editing && action === "topic.channel") {
        setField("channel");
        setPick(-1);
      } else if (editing && (action === "topic.modeLeft" || action === "topic.modeRight")) {
        const i = PROPAGATE_MODES.findIndex((m) => m.mode === mode());
        const n = PROPAGATE_MODES.length;
        setMode(PROPAGATE_MODES[(i + (action === "topic.modeLeft" ? n - 1 : 1)) % n]!.mode);
      } else if (input.key(name, text, ctx.keymap)) {
        setPick(-1);
        setError(undefined);
      }
      return true;
    },
    { priority: 50 },
  );

  const channelName = sanitizeInline(ctx.store.channelName(channelId) ?? String(channelId));
  const empty = sanitizeInline(ctx.store.realm.emptyTopicName);
  const choosingChannel = field() === "channel";
  const title = choosingChannel ? "Move to which channel?" : editing ? `Move to which topic of #${channelName}?` : `New topic in #${channelName}`;
  const k = (action: string) => ctx.keymap.hint(action).split(" / ")[0];
  const hint = choosingChannel
    ? `type to filter · ${k("topicChannel.up")}/${k("topicChannel.down")} choose · ${k("topicChannel.take")} take · ${k("topicChannel.back")} back`
    : `${k("topic.accept")} ${editing ? "done" : "write"} · ${k("topic.up")}/${k("topic.down")} existing topics${editing ? ` · ${k("topic.channel")} channel · ${k("topic.modeLeft")}/${k("topic.modeRight")} which messages` : ""} · ${k("topic.cancel")} cancel`;
  return (
    <Popup title={title} hint={hint} width={width} height={height}>
      {editing ? (
        <Text wrap="truncate-start">
          <Text color={theme.accent}>Channel: </Text>
          {choosingChannel ? (
            <>
              {"#" + sanitizeInline(channelInput.value.current)}
              <Text inverse> </Text>
            </>
          ) : (
            `#${channelName}${channelId !== startChannel ? "  (moves to another channel)" : ""}`
          )}
        </Text>
      ) : null}
      <Text wrap="truncate-start" dimColor={choosingChannel}>
        <Text color={theme.accent}>Topic: </Text>
        {sanitizeInline(typed)}
        {choosingChannel ? null : <Text inverse> </Text>}
        {!typed ? <Text dimColor italic>{t`  (empty: “${empty}”)`}</Text> : null}
      </Text>
      {error ? (
        <Text color={theme.error} wrap="wrap">
          {error}
        </Text>
      ) : null}
      {editing ? (
        <Text wrap="truncate" dimColor={!moved}>
          {"Move: "}
          {PROPAGATE_MODES.map((m) => (
            <Text key={m.mode} inverse={m.mode === mode() && moved}>{` ${m.label} `}</Text>
          ))}
        </Text>
      ) : null}
      {choosingChannel ? (
        <>
          <Text dimColor>{channels.length ? "Channels:" : "No channel matches."}</Text>
          {channels.map((c, i) => (
            <Text key={c.id} wrap="truncate" inverse={i === Math.max(0, pick())}>
              <RowMark kind={i === Math.max(0, pick()) ? "selected" : "none"} inverse={i === Math.max(0, pick())} />
              {" #" + sanitizeInline(c.name)}
            </Text>
          ))}
        </>
      ) : (
        <>
          <Text dimColor>{topics.length ? "Existing topics:" : " "}</Text>
          {topics.map((row, i) => (
            <Text key={row.topic} wrap="truncate" inverse={i === pick()}>
              <RowMark kind={i === pick() ? "selected" : "none"} inverse={i === pick()} />
              {" " + sanitizeInline(row.displayName)}
              {row.unread ? <Text color={i === pick() ? undefined : theme.unread}>{`  ${row.unread}`}</Text> : null}
            </Text>
          ))}
        </>
      )}
    </Popup>
  );
}

/** c: asks for the topic, then opens it with the compose box. */
export function openNewTopic(ctx: ActionContext, channelId: number): void {
  ctx.openPopup((close) => (
    <TopicPrompt
      channelId={channelId}
      close={close}
      onDone={(topic, _mode, now) => {
        const target: SendTarget = { type: "stream", channelId, topic };
        now.openNarrow({ kind: "topic", channelId, topic }, { focus: "messages" });
        now.openCompose(target);
      }}
    />
  ));
}

/** Tab while editing a channel message: where it moves (topic, channel) and which messages move along. */
export function openEditTopic(ctx: ActionContext): void {
  const c = ctx.ui.compose;
  if (!c?.editing || c.target.type !== "stream") return;
  const m = ctx.store.messages.byId.get(c.editing.messageId);
  const chosen = c.target; // where the compose box says it goes (an earlier Tab may have changed it)
  const original = {
    topic: m?.type === "stream" ? m.subject : chosen.topic,
    channelId: m?.type === "stream" ? (m.stream_id ?? chosen.channelId) : chosen.channelId,
  };
  const messageId = c.editing.messageId;
  ctx.openPopup((close) => (
    <TopicPrompt
      channelId={chosen.channelId}
      editing={{ topic: c.editing?.topic ?? original.topic, propagateMode: c.editing?.propagateMode ?? "change_one" }}
      close={close}
      onDone={(topic, propagateMode, now, channelId) => {
        const cur = now.ui.compose ?? c;
        const target: SendTarget = { type: "stream", channelId, topic };
        const moved = topic !== original.topic || channelId !== original.channelId;
        const how = PROPAGATE_MODES.find((p) => p.mode === propagateMode)?.label ?? propagateMode;
        now.dispatch({
          type: "compose",
          compose: {
            ...cur,
            target,
            error: undefined,
            label: composeLabel(now.store, target) + (moved ? ` (moves ${how})` : ""),
            editing: { messageId, topic, propagateMode, channelId: channelId !== original.channelId ? channelId : undefined },
          },
        });
      }}
    />
  ));
}
