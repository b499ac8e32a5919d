/**
 * Choosing an account at start, when several are configured and the command
 * line named none: a short list (name, email, server) chosen with j/k or the
 * arrows and Enter, or by its number; Esc or q gives up. Runs before the app,
 * as its own small Ink program (`pickAccount`).
 */
import { Box, Text } from "ink";
import { useState, type ReactNode } from "react";
import { sanitizeInline } from "../../render/sanitize.js";
import { DEFAULT_SETTINGS } from "../../config/settings.js";
import { t } from "../../render/glyphs.js";
import { promptsFeature } from "../features/prompts.js";
import { KeypressProvider, useKeypress } from "../hooks/use-keypress.js";
import { RowMark } from "../components/RowMark.js";
import { applyPresentation, choosePresentation, noteLocale } from "../look.js";
import { terminalCapabilities } from "../terminal/capabilities.js";
import { Keymap } from "../keymap.js";

export interface AccountChoice {
  name: string;
  email: string;
  site: string;
}

/** The picker runs before the settings are read: its keys are the defaults of the "accounts" scope. */
const DEFAULT_KEYMAP = new Keymap(promptsFeature.bindings);

export function AccountPicker({ choices, onPick, onCancel, keymap = DEFAULT_KEYMAP }: { choices: AccountChoice[]; onPick: (name: string) => void; onCancel: () => void; keymap?: Keymap }): ReactNode {
  const [cursor, setCursor] = useState(0);
  useKeypress((name) => {
    const move = (d: number) => setCursor((c) => Math.max(0, Math.min(choices.length - 1, c + d)));
    const action = keymap.action("accounts", name);
    if (action === "account.down") move(1);
    else if (action === "account.up") move(-1);
    else if (action === "account.first") setCursor(0);
    else if (action === "account.last") setCursor(choices.length - 1);
    else if (action === "account.choose" || action === "account.number") {
      const c = choices[action === "account.number" ? keymap.keysFor(action).indexOf(name) : cursor];
      if (c) onPick(c.name);
    } else if (action === "account.quit") onCancel();
    return true;
  });
  const nameWidth = Math.min(24, Math.max(...choices.map((c) => c.name.length), 4));
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text bold>{t("termchat — choose an account")}</Text>
      <Text dimColor>{t(`${keymap.hint("account.down")} move · ${keymap.hint("account.choose")} or 1–9 choose · ${keymap.hint("account.quit")} quit (next time: termchat --account NAME)`)}</Text>
      {choices.map((c, i) => {
        const selected = i === cursor;
        return (
          <Text key={c.name} wrap="truncate" inverse={selected}>
            <RowMark kind={selected ? "selected" : "none"} inverse={selected} />
            {` ${i < 9 ? String(i + 1) : " "}  ${sanitizeInline(c.name).padEnd(nameWidth)}  ${sanitizeInline(c.email)}  ${sanitizeInline(c.site)}`}
          </Text>
        );
      })}
    </Box>
  );
}

/** Shows the picker on the terminal; resolves with the chosen name, or undefined when the user gave up. */
export async function pickAccount(choices: AccountChoice[]): Promise<string | undefined> {
  const { render } = await import("ink");
  // The picker draws before the app: it takes the terminal's glyphs by itself (settings are not read yet).
  noteLocale();
  applyPresentation(choosePresentation(DEFAULT_SETTINGS, terminalCapabilities()));
  return new Promise((resolve) => {
    let done = false;
    const finish = (name: string | undefined) => {
      if (done) return;
      done = true;
      instance.clear();
      instance.unmount();
      void instance.waitUntilExit().then(
        () => resolve(name),
        () => resolve(name),
      );
    };
    const instance = render(
      <KeypressProvider>
        <AccountPicker choices={choices} onPick={(n) => finish(n)} onCancel={() => finish(undefined)} />
      </KeypressProvider>,
      { exitOnCtrlC: false, patchConsole: false },
    );
  });
}
