/** d: asks before deleting one of your messages (by default y or Enter deletes; n or Esc keeps it). */
import { Text } from "ink";
import type { Message } from "../../api/schemas/common.js";
import { narrowTitle } from "../../model/selectors.js";
import { presentEmoji } from "../../render/glyphs.js";
import { sanitize, sanitizeInline } from "../../render/sanitize.js";
import type { ActionContext } from "../app-context.js";
import { useScreenActions, useScreenState } from "../contexts.js";
import { targetOfMessage } from "../compose-rules.js";
import { targetNarrow } from "../../model/narrow.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { useTheme } from "../theme.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export function ConfirmDelete({ message, close }: { message: Message; close: () => void }) {
  const { store, account, keymap } = useScreenState();
  const { attempt } = useScreenActions();
  const theme = useTheme();
  const { width, height } = usePopupSize();
  useKeypress(
    (name) => {
      const action = keymap.action("popup.confirm", name);
      if (action === "confirm.yes") {
        close();
        attempt(() => account.actions.deleteMessage(message.id), "Message deleted.");
      } else if (action === "confirm.no") close();
      return true;
    },
    { priority: 50 },
  );
  const where = sanitizeInline(narrowTitle(store, targetNarrow(targetOfMessage(store, message))));
  const lines = presentEmoji(sanitize(message.content, { multiline: true })).split("\n").slice(0, Math.max(1, height - 6));
  return (
    <Popup title="Delete this message?" hint={`${keymap.hint("confirm.yes").replace(" / ", " or ")} delete · ${keymap.hint("confirm.no").replace(" / ", " or ")} keep`} width={width} height={height}>
      <Text dimColor wrap="truncate">
        {where}
      </Text>
      {lines.map((l, i) => (
        <Text key={i} wrap="truncate">
          {"  " + (l || " ")}
        </Text>
      ))}
      <Text color={theme.warn}>Deleting cannot be undone.</Text>
    </Popup>
  );
}

export function openConfirmDelete(ctx: ActionContext, message: Message): void {
  ctx.openPopup((close) => <ConfirmDelete message={message} close={close} />);
}
