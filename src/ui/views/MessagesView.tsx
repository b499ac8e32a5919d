/** The open narrow: its title, the message pane (with unsent messages from the outbox), and the compose box. */
import { Box, Text } from "ink";
import { narrowTitle } from "../../model/selectors.js";
import type { Narrow } from "../../model/narrow.js";
import { glyphs, presentResolved, t } from "../../render/glyphs.js";
import { sanitizeInline } from "../../render/sanitize.js";
import type { OutboxEntry } from "../../sync/account-handle.js";
import { Compose } from "../components/Compose.js";
import { MessagePane } from "../components/MessagePane.js";
import type { EditorState } from "../compose-editor.js";
import type { Block } from "../message-layout.js";
import { useScreenState } from "../contexts.js";
import { useRenderProbe } from "../render-probe.js";
import { useTheme } from "../theme.js";
import type { ComposeState } from "../ui-state.js";

export interface MessagesViewProps {
  narrow: Narrow;
  blocks: Block[];
  /** Lines of the first block scrolled off above the pane. */
  skip?: number;
  selectedId: number | undefined;
  unread: Set<number>;
  pending: OutboxEntry[];
  width: number;
  paneHeight: number;
  focused: boolean;
  compose?: ComposeState;
  editor: EditorState;
  sending: boolean;
  placeholder: string;
  loadingMore: boolean;
  typing?: string;
}

export function pendingLine(e: OutboxEntry): { text: string; failed: boolean } {
  const first = sanitizeInline(e.content.split("\n")[0] ?? "");
  const g = glyphs();
  if (e.state === "failed") return { text: t`${g.cross} not sent: ${sanitizeInline(e.error ?? "refused")} — ${first}`, failed: true };
  const why = e.state === "waiting" ? "waiting for the connection" : e.state === "unknown" ? "checking whether it arrived" : "sending";
  return { text: t`${g.pending} ${why}… ${first}`, failed: false };
}

/** Unsent messages shown under the pane, at most. */
const PENDING_ROWS = 3;

/** The rows left for messages in a pane of `paneHeight`: the unsent messages and the typing line take theirs. */
export function messageRows(paneHeight: number, pending: number, typing: boolean): number {
  return Math.max(2, paneHeight - Math.min(PENDING_ROWS, pending) - (typing ? 1 : 0));
}

export function MessagesView(p: MessagesViewProps) {
  useRenderProbe("messages");
  const theme = useTheme();
  const { store } = useScreenState();
  const title = presentResolved(sanitizeInline(narrowTitle(store, p.narrow)));
  const pendingRows = p.pending.slice(-PENDING_ROWS);
  const paneHeight = messageRows(p.paneHeight, p.pending.length, Boolean(p.typing));
  return (
    <Box flexDirection="column" width={p.width} flexShrink={0}>
      <Text bold wrap="truncate">
        {title}
        {p.loadingMore ? <Text dimColor>{t("  loading…")}</Text> : null}
      </Text>
      <MessagePane
        blocks={p.blocks}
        skip={p.skip}
        selectedId={p.selectedId}
        unread={p.unread}
        height={paneHeight}
        width={p.width}
        focused={p.focused}
        placeholder={p.placeholder}
      />
      {pendingRows.map((e) => {
        const l = pendingLine(e);
        return (
          <Text key={e.id} wrap="truncate" color={l.failed ? theme.error : undefined} dimColor={!l.failed}>
            {" " + l.text}
          </Text>
        );
      })}
      {p.typing ? (
        <Text dimColor wrap="truncate">
          {" " + sanitizeInline(p.typing)}
        </Text>
      ) : null}
      {p.compose ? (
        <Compose
          label={(p.compose.editing ? t("Editing · ") : "") + p.compose.label}
          editor={p.editor}
          width={p.width}
          maxLines={6}
          sending={p.sending}
          error={p.compose.error}
        />
      ) : null}
    </Box>
  );
}
