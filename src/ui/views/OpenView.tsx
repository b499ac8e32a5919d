/** The open view: a list screen of the screen table (the Inbox, Followed topics…), or the open narrow's messages with the compose box below them. */
import type { ComposeEditor } from "../hooks/use-compose.js";
import type { useOpenView } from "../hooks/use-open-view.js";
import type { UiState } from "../ui-state.js";
import { screenById } from "../screens.js";
import { MessagesView } from "./MessagesView.js";

export interface OpenViewProps {
  ui: UiState;
  width: number;
  height: number;
  paneHeight: number;
  open: ReturnType<typeof useOpenView>;
  editor: ComposeEditor;
  sending: boolean;
}

export function OpenView({ ui, width, height, paneHeight, open, editor, sending }: OpenViewProps) {
  if (ui.view.kind === "screen") {
    const Screen = screenById(ui.view.id)?.component;
    return Screen ? <Screen width={width} height={height} focused={ui.focus !== "sidebar"} /> : null;
  }
  if (!open.narrow) return null;
  return (
    <MessagesView
      narrow={open.narrow}
      blocks={open.blocks}
      skip={open.skip}
      selectedId={open.selected?.id}
      unread={open.unreadShown}
      pending={open.pending}
      width={width}
      paneHeight={paneHeight}
      focused={ui.focus === "messages"}
      compose={ui.compose}
      editor={editor}
      sending={sending}
      placeholder={open.placeholder}
      loadingMore={open.loadingMore}
      typing={open.typing}
    />
  );
}
