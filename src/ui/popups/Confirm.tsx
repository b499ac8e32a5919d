/** A yes/no question before something that cannot be taken back: by default y or Enter confirms, n or Esc cancels. */
import { Text } from "ink";
import type { ReactNode } from "react";
import { sanitizeInline } from "../../render/sanitize.js";
import type { ActionContext } from "../app-context.js";
import { useScreenState } from "../contexts.js";
import { useKeypress } from "../hooks/use-keypress.js";
import { useTheme } from "../theme.js";
import { Popup } from "./Popup.js";
import { usePopupSize } from "./PopupHost.js";

export interface ConfirmSpec {
  title: string;
  lines: string[];
  /** What confirming does, shown on the key hint ("deactivate"). */
  action: string;
  danger?: boolean;
  onConfirm: () => void;
}

export function openConfirm(ctx: ActionContext, spec: ConfirmSpec): void {
  ctx.openPopup((close) => <Confirm spec={spec} close={close} />);
}

export function Confirm({ spec, close }: { spec: ConfirmSpec; close: () => void }): ReactNode {
  const { keymap } = useScreenState();
  const theme = useTheme();
  const { width, height } = usePopupSize();
  useKeypress(
    (name) => {
      const action = keymap.action("popup.confirm", name);
      if (action === "confirm.yes") {
        close();
        spec.onConfirm();
      } else if (action === "confirm.no") close();
      return true;
    },
    { priority: 50 },
  );
  return (
    <Popup title={sanitizeInline(spec.title)} hint="" width={width} height={Math.min(height, rowsNeeded(spec.lines, width - 4) + 5)}>
      {spec.lines.map((l, i) => (
        <Text key={i} wrap="wrap">
          {sanitizeInline(l)}
        </Text>
      ))}
      <Text> </Text>
      <Text bold color={spec.danger ? theme.error : theme.accent}>
        {`${keymap.hint("confirm.yes")}: ${sanitizeInline(spec.action)}   ${keymap.hint("confirm.no")}: cancel`}
      </Text>
    </Popup>
  );
}

/** Rows the wrapped lines take in the popup's inner width. */
function rowsNeeded(lines: string[], inner: number): number {
  return lines.reduce((n, l) => n + Math.max(1, Math.ceil([...l].length / Math.max(10, inner - 6))), 0);
}
