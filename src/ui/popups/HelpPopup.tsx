/**
 * The help screen: the legend of the marks on screen (from the glyph table, so it shows the
 * glyphs in use), then the keys, generated from the live keymap (so it never disagrees with
 * them); each row names its action, for the settings' "keys".
 */
import { Text } from "ink";
import { displayWidth, truncate, wrapText } from "../../render/wrap.js";
import { presentEmoji, t } from "../../render/glyphs.js";
import type { ActionContext } from "../app-context.js";
import { displayKey } from "../keymap.js";
import { useList } from "../list/list-part.js";
import { usePopupSize } from "./PopupHost.js";
import { useTheme } from "../theme.js";
import { markLegend } from "../components/RowMark.js";
import { Popup } from "./Popup.js";

const TITLES: Record<string, string> = {
  global: "Anywhere",
  sidebar: "Sidebar",
  messages: "Messages",
  compose: "Compose",
  edit: "Editing text (compose box and prompts)",
  list: "Any list (popups, list screens)",
  "list.filter": "Any list filtered by typing (letters type into the filter)",
  screen: "List screens (Inbox, Followed topics, Recent conversations)",
  "screen.recent": "Recent conversations",
  "screen.recent.filter": "Recent conversations, while typing a filter",
  "popup.confirm": "Confirmation popups",
  "popup.emoji": "Emoji picker",
  "popup.emoji.list": "Emoji picker, moving with letters (after Tab)",
  "popup.reactions": "Reactions on a message",
  "popup.drafts": "Drafts",
  "popup.info": "Message info",
  "popup.user": "A person's card",
  search: "Search prompt",
  palette: "Commands (Ctrl-K)",
  finder: "Go to anything (Ctrl-P)",
  "popup.pick": "Choosing people or a channel",
  "popup.people": "People",
  "popup.people.filter": "People, while typing a filter",
  "popup.form": "Forms (channel and topic settings…)",
  "popup.form.toggle": "Forms, on a yes/no field",
  "popup.form.choice": "Forms, on a field of a few choices",
  "popup.form.pick": "Forms, on a field chosen by typing",
  "compose.menu": "Compose, with suggestions listed",
  "sidebar.filter": "Sidebar, while typing a filter (q)",
  "popup.allInbox": "Unread in every organization (U)",
  "popup.topic": "Topic prompt",
  "popup.topic.channel": "Topic prompt, choosing the channel",
  "popup.attach": "Attaching files (Ctrl-T in the compose box)",
  "popup.links": "A message's links and files (L)",
  "popup.files": "Your uploaded files",
  "popup.help": "This screen",
  "popup.image": "Image viewer (v)",
  "popup.widget": "Poll and to-do popup",
  "popup.widget.add": "Poll and to-do popup, adding an option or a task",
  "popup.scheduled": "Scheduled messages (W)",
  "popup.reminders": "Reminders",
  "popup.snippets": "Saved snippets (Ctrl-N in the compose box)",
  "popup.editText": "Editing a scheduled message's or a snippet's text",
};

/** A key scope's title in words; one without a title of its own is still said in words, never as its id. */
export function helpTitle(context: string): string {
  const own = TITLES[context];
  if (own !== undefined) return own;
  const words = context
    .split(".")
    .filter((w) => w !== "popup")
    .join(", ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The scopes that have a title of their own (tests check that every scope of the keymap has one). */
export function titledContexts(): string[] {
  return Object.keys(TITLES);
}

export function openHelp(ctx: ActionContext): void {
  ctx.openPopup((close) => <HelpPopup keymap={ctx.keymap} close={close} />);
}

export function HelpPopup({ keymap, close }: { keymap: ActionContext["keymap"]; close: () => void }) {
  const rows = keymap.helpRows();
  const { width, height } = usePopupSize();
  const theme = useTheme();
  // The keys' column is as wide as its widest entry (within reason); a description longer
  // than the room beside it goes on over more lines, so nothing is cut off at 80 columns.
  const inner = Math.max(20, width - 4);
  const keysWidth = Math.min(Math.max(...rows.map((r) => displayWidth(t(r.keys))), 4) + 2, Math.floor(inner / 3));
  const helpWidth = Math.max(10, inner - 2 - keysWidth);
  const lines: Array<{ title?: string; text?: string }> = [{ title: "Marks on screen" }];
  const legend = markLegend();
  const marksWidth = Math.max(...legend.map(([m]) => displayWidth(m))) + 2;
  for (const [marks, meaning] of legend) {
    wrapText(meaning, Math.max(10, inner - 2 - marksWidth))
      .split("\n")
      .forEach((part, i) => {
        const left = i === 0 ? marks : "";
        lines.push({ text: "  " + left + " ".repeat(Math.max(0, marksWidth - displayWidth(left))) + part });
      });
  }
  let last = "";
  for (const r of rows) {
    if (r.context !== last) {
      lines.push({ title: t(helpTitle(r.context)) });
      last = r.context;
    }
    const keys = truncate(t(r.keys), keysWidth - 1);
    wrapText(t`${presentEmoji(t(r.help))} · ${r.action}`, helpWidth)
      .split("\n")
      .forEach((part, i) => {
        const left = i === 0 ? keys : "";
        lines.push({ text: "  " + left + " ".repeat(Math.max(0, keysWidth - displayWidth(left))) + part });
      });
  }
  const room = Math.max(1, height - 3);
  // A scrolled text: the list's cursor is the first line shown.
  const scrolls = Math.max(0, lines.length - room) + 1;
  const list = useList({ scope: "popup.help", keymap, count: () => scrolls, page: room, onAction: (action) => action === "help.close" && (close(), true) });
  const offset = list.at(scrolls);
  return (
    <Popup title="termchat keys" hint={`${keymap.keysFor("list.down").map(displayKey)[0] ?? "j"}/${keymap.keysFor("list.up").map(displayKey)[0] ?? "k"} scroll · ${keymap.hint("help.close").replace(" / ", " or ")} close`} width={width} height={height}>
      {lines.slice(offset, offset + room).map((l, i) =>
        l.title ? (
          <Text key={i} bold color={theme.accent}>
            {l.title}
          </Text>
        ) : (
          <Text key={i} wrap="truncate">
            {l.text}
          </Text>
        ),
      )}
    </Popup>
  );
}
