/**
 * The screen: sidebar | message pane, compose box, status line. UI state
 * that is not server state (open narrow, selection, compose text) lives
 * here and survives a store rebuild.
 */
import { Box, Text, useApp } from "ink";
import { useEffect, useMemo, useRef, useState } from "react";
import { describeError } from "../api/errors.js";
import { dmParticipants, messageDmUsers, narrowKey, FEED, type Narrow } from "../model/narrow.js";
import { narrowMessages, narrowTitle } from "../model/selectors.js";
import type { Store } from "../model/store.js";
import { loadMarkdown } from "../render/markdown.js";
import { sanitizeInline } from "../render/sanitize.js";
import type { Commands, SendTarget } from "../sync/commands.js";
import type { ConnectionState, UpdateMachine } from "../sync/update-machine.js";
import { EMPTY_EDITOR, editActionForKey, editorReducer, type EditorState } from "./compose-editor.js";
import { Compose } from "./components/Compose.js";
import { HelpOverlay } from "./components/HelpOverlay.js";
import { MessagePane } from "./components/MessagePane.js";
import { Sidebar } from "./components/Sidebar.js";
import { StatusLine } from "./components/StatusLine.js";
import { useKeypress } from "./hooks/use-keypress.js";
import { useStoreVersion } from "./hooks/use-store.js";
import { useTerminalSize } from "./hooks/use-terminal-size.js";
import { Keymap } from "./keymap.js";
import { layoutWindow, renderContext } from "./message-layout.js";
import { buildSidebarRows, moveCursor, type SidebarRow } from "./sidebar-rows.js";

export interface AppProps {
  machine: UpdateMachine;
  commands: Commands;
  keymap?: Keymap;
  color?: boolean;
  onQuit?: () => void;
  /** Called once, after the first frame that shows the organization (start-up measurements). */
  onFirstFrame?: () => void;
}

type Focus = "sidebar" | "messages" | "compose";

interface ComposeTarget {
  target: SendTarget;
  label: string;
  key: string;
}

const SIDEBAR_WIDTH = 30;

function rowKey(row: SidebarRow): string {
  return row.kind === "header" ? `h:${row.label}` : narrowKey(row.narrow);
}

function targetFor(store: Store, narrow: Narrow, selected: ReturnType<Store["messages"]["byId"]["get"]>): ComposeTarget | undefined {
  let target: SendTarget | undefined;
  if (selected?.type === "stream" && selected.stream_id !== undefined) {
    target = { type: "stream", channelId: selected.stream_id, topic: selected.subject };
  } else if (selected?.type === "private") {
    target = { type: "direct", userIds: dmParticipants(messageDmUsers(selected), store.selfId) };
  } else if (narrow.kind === "topic") {
    target = { type: "stream", channelId: narrow.channelId, topic: narrow.topic };
  } else if (narrow.kind === "dm") {
    target = { type: "direct", userIds: narrow.userIds };
  }
  if (!target) return undefined;
  const n: Narrow =
    target.type === "stream" ? { kind: "topic", channelId: target.channelId, topic: target.topic } : { kind: "dm", userIds: target.userIds };
  return { target, label: sanitizeInline(narrowTitle(store, n)), key: narrowKey(n) };
}

export function App({ machine, commands, keymap = new Keymap(), color = true, onQuit, onFirstFrame }: AppProps) {
  const { exit } = useApp();
  const { columns, rows } = useTerminalSize();
  const [store, setStore] = useState<Store | undefined>(machine.store);
  const [conn, setConn] = useState<ConnectionState>(machine.state);
  useEffect(() => machine.onStore(setStore), [machine]);
  useEffect(() => machine.onState(setConn), [machine]);
  const version = useStoreVersion(store);

  const [focus, setFocus] = useState<Focus>("sidebar");
  const [cursor, setCursor] = useState(0);
  const [expanded, setExpanded] = useState<number | undefined>();
  const [narrow, setNarrow] = useState<Narrow>(FEED);
  const [selectedId, setSelectedId] = useState<number | undefined>();
  const [follow, setFollow] = useState(true);
  const [help, setHelp] = useState(false);
  const [notice, setNotice] = useState<string | undefined>();
  // The compose text lives in a ref updated synchronously, so no key is lost between renders.
  const editorRef = useRef<EditorState>(EMPTY_EDITOR);
  const drafts = useRef(new Map<string, EditorState>());
  const [, setEditorTick] = useState(0);
  const [compose, setCompose] = useState<ComposeTarget | undefined>();
  const [sending, setSending] = useState(false);
  const [sendError, setSendError] = useState<string | undefined>();

  const height = Math.max(5, rows - 1); // one row short of the terminal: a full-height frame clears the scrollback
  const mainWidth = Math.max(20, columns - SIDEBAR_WIDTH - 1);
  const composeHeight = compose ? Math.min(6, editorRef.current.text.split("\n").length) + 2 + (sendError ? 1 : 0) + 1 : 0;
  const paneHeight = Math.max(3, height - 2 - composeHeight);

  const sidebarRows = useMemo(() => (store ? buildSidebarRows(store, expanded) : []), [store, version, expanded]);
  const messages = useMemo(() => (store ? narrowMessages(store, narrow) : []), [store, version, narrow]);
  const list = store?.messages.list(narrow);

  // The Markdown engine loads after the first frame with data; bodies re-render when it is ready.
  const [markdownReady, setMarkdownReady] = useState(false);
  const hasStore = store !== undefined;
  useEffect(() => {
    if (!hasStore) return;
    let live = true;
    const t = setTimeout(() => void loadMarkdown().then(() => live && setMarkdownReady(true)), 0);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [hasStore]);

  const firstFrame = useRef(onFirstFrame);
  useEffect(() => {
    if (store && firstFrame.current) {
      firstFrame.current();
      firstFrame.current = undefined;
    }
  }, [store]);

  // Load the open narrow, and again after a rebuild swapped in a new store.
  useEffect(() => {
    if (store) void commands.loadNarrow(narrow);
  }, [store, narrow, commands]);
  useEffect(() => {
    if (store && expanded !== undefined) void commands.fetchTopics(expanded);
  }, [store, expanded, commands]);

  // Selection: keep the chosen message; otherwise the first unread, else the newest.
  let selectedIndex = messages.findIndex((m) => m.id === selectedId);
  if (selectedIndex === -1 || follow) {
    const firstUnread = follow && selectedId === undefined ? messages.findIndex((m) => store?.unreads.has(m.id)) : -1;
    selectedIndex = firstUnread >= 0 ? firstUnread : messages.length - 1;
  }
  const selected = messages[selectedIndex];
  const ctx = useMemo(() => (store ? renderContext(store, color) : undefined), [store, color]);
  const { blocks } = useMemo(
    () =>
      store && ctx
        ? layoutWindow(store, messages, selectedIndex, paneHeight, { width: mainWidth - 1, showRecipients: narrow.kind !== "topic" && narrow.kind !== "dm", color }, ctx)
        : { blocks: [] },
    [store, ctx, messages, selectedIndex, paneHeight, mainWidth, narrow, color, version, markdownReady],
  );
  const unreadShown = useMemo(() => new Set(blocks.map((b) => b.id).filter((id) => store?.unreads.has(id))), [blocks, store, version]);

  // Messages shown in the pane count as read once the reader is in the pane.
  useEffect(() => {
    if (focus !== "sidebar" && unreadShown.size) commands.markRead([...unreadShown]);
  }, [unreadShown, commands, focus]);

  // Reaching the top asks for older messages.
  useEffect(() => {
    if (focus === "messages" && selectedIndex === 0 && list && !list.foundOldest) void commands.fetchOlder(narrow);
  }, [focus, selectedIndex, list, narrow, commands]);

  function openNarrow(n: Narrow) {
    setNarrow(n);
    setSelectedId(undefined);
    setFollow(true);
  }

  function select(index: number) {
    const m = messages[Math.max(0, Math.min(messages.length - 1, index))];
    if (!m) return;
    setSelectedId(m.id);
    setFollow(index >= messages.length - 1);
  }

  function openCompose() {
    if (!store) return;
    const t = targetFor(store, narrow, selected);
    if (!t) {
      setNotice("Open a topic or conversation to reply");
      return;
    }
    if (compose) drafts.current.set(compose.key, editorRef.current);
    editorRef.current = drafts.current.get(t.key) ?? EMPTY_EDITOR;
    setCompose(t);
    setSendError(undefined);
    setFocus("compose");
  }

  function closeCompose() {
    if (compose) drafts.current.set(compose.key, editorRef.current);
    setCompose(undefined);
    setFocus("messages");
  }

  async function send() {
    if (!compose || sending) return;
    const text = editorRef.current.text;
    if (!text.trim()) return;
    const max = store?.realm.maxMessageLength ?? 10000;
    if (text.length > max) {
      setSendError(`The message is ${text.length} characters long; the organization allows ${max}.`);
      return;
    }
    setSending(true);
    setSendError(undefined);
    try {
      await commands.send(compose.target, text);
      // Only clear what was sent: text typed while sending stays.
      if (editorRef.current.text === text) editorRef.current = EMPTY_EDITOR;
      drafts.current.delete(compose.key);
      setCompose(undefined);
      setFocus("messages");
      setFollow(true);
      setSelectedId(undefined);
    } catch (err) {
      setSendError(`Not sent: ${describeError(err)} — your text is kept; Enter to retry`);
    } finally {
      setSending(false);
    }
  }

  function quit() {
    onQuit?.();
    exit();
  }

  useKeypress(
    (name, input) => {
      const action = keymap.action("compose", name);
      if (action === "send") void send();
      else if (action === "newline") editorRef.current = editorReducer(editorRef.current, { type: "insert", text: "\n" });
      else if (action === "cancel") closeCompose();
      else {
        const edit = editActionForKey(name, input);
        if (!edit) return true;
        editorRef.current = editorReducer(editorRef.current, edit);
      }
      setEditorTick((t) => t + 1);
      return true;
    },
    { priority: 100, active: focus === "compose" && !help },
  );

  useKeypress(
    (name) => {
      if (name === "escape" || name === "?" || name === "q") setHelp(false);
      return true;
    },
    { priority: 90, active: help },
  );

  useKeypress((name) => {
    setNotice(undefined);
    const context = focus === "compose" ? "global" : focus;
    const action = keymap.action(context, name);
    switch (action) {
      case "help":
        setHelp(true);
        return true;
      case "quit":
        quit();
        return true;
    }
    if (focus === "sidebar") {
      switch (action) {
        case "up":
          setCursor((c) => moveCursor(sidebarRows, c, -1));
          return true;
        case "down":
          setCursor((c) => moveCursor(sidebarRows, c, 1));
          return true;
        case "first":
          setCursor(moveCursor(sidebarRows, 0, 0));
          return true;
        case "last":
          setCursor(sidebarRows.length - 1);
          return true;
        case "collapse":
          setExpanded(undefined);
          return true;
        case "open":
        case "expand": {
          const row = sidebarRows[cursor];
          if (!row || row.kind === "header") return true;
          if (row.kind === "channel") {
            setExpanded(row.expanded && action === "open" ? undefined : row.channelId);
            openNarrow(row.narrow);
            return true;
          }
          openNarrow(row.narrow);
          setFocus("messages");
          return true;
        }
      }
      return false;
    }
    if (focus === "messages") {
      switch (action) {
        case "up":
          select(selectedIndex - 1);
          return true;
        case "down":
          select(selectedIndex + 1);
          return true;
        case "pageUp":
          select(selectedIndex - Math.max(1, Math.floor(paneHeight / 4)));
          return true;
        case "pageDown":
          select(selectedIndex + Math.max(1, Math.floor(paneHeight / 4)));
          return true;
        case "newest":
          select(messages.length - 1);
          return true;
        case "reply":
          openCompose();
          return true;
        case "back":
          setFocus("sidebar");
          return true;
      }
    }
    return false;
  });

  if (!store) {
    return (
      <Box flexDirection="column" height={height}>
        <Box flexGrow={1}>
          <Text>{conn.kind === "failed" ? `Could not start: ${sanitizeInline(conn.error)}` : "Connecting…"}</Text>
        </Box>
        <StatusLine state={conn} organization="" user={machine.client.email} width={columns} />
      </Box>
    );
  }

  const title = sanitizeInline(narrowTitle(store, narrow));
  const placeholder =
    list?.status === "fetching" || !list ? "Loading…" : list.status === "error" ? `Could not load messages: ${list.error}` : "No messages here yet.";
  return (
    <Box flexDirection="column" height={height}>
      {help ? (
        <HelpOverlay keymap={keymap} height={height - 1} width={columns} />
      ) : (
        <Box flexDirection="row" height={height - 1}>
          <Sidebar
            rows={sidebarRows}
            cursor={cursor}
            width={SIDEBAR_WIDTH}
            height={height - 1}
            focused={focus === "sidebar"}
            openKey={narrowKey(narrow)}
            rowKey={rowKey}
          />
          <Box flexDirection="column" width={mainWidth} marginLeft={1} flexShrink={0}>
            <Text bold wrap="truncate">
              {title}
              {list?.status === "fetching" && messages.length ? <Text dimColor>  loading…</Text> : null}
            </Text>
            <MessagePane
              blocks={blocks}
              selectedId={selected?.id}
              unread={unreadShown}
              height={paneHeight}
              width={mainWidth}
              focused={focus === "messages"}
              placeholder={placeholder}
            />
            {compose ? (
              <Compose label={compose.label} editor={editorRef.current} width={mainWidth} maxLines={6} sending={sending} error={sendError} />
            ) : null}
          </Box>
        </Box>
      )}
      <StatusLine
        state={conn}
        organization={store.realm.name}
        user={store.userName(store.selfId)}
        notice={notice}
        width={columns}
      />
    </Box>
  );
}
