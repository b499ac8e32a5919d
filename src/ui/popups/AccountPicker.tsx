/**
 * Choosing an account at start, when several are configured and the command
 * line named none: a short list (name, email, server) chosen with j/k or the
 * arrows and Enter, or by its number; Esc or q gives up. Runs before the app,
 * as its own small Ink program (`pickAccount`).
 */
import { Box, Text } from "ink";
import { useState, type ReactNode } from "react";
import { sanitizeInline } from "../../render/sanitize.js";
import { KeypressProvider, useKeypress } from "../hooks/use-keypress.js";

export interface AccountChoice {
  name: string;
  email: string;
  site: string;
}

export function AccountPicker({ choices, onPick, onCancel }: { choices: AccountChoice[]; onPick: (name: string) => void; onCancel: () => void }): ReactNode {
  const [cursor, setCursor] = useState(0);
  useKeypress((name) => {
    const move = (d: number) => setCursor((c) => Math.max(0, Math.min(choices.length - 1, c + d)));
    if (name === "j" || name === "down" || name === "tab") move(1);
    else if (name === "k" || name === "up" || name === "S-tab") move(-1);
    else if (name === "g" || name === "home") setCursor(0);
    else if (name === "G" || name === "end") setCursor(choices.length - 1);
    else if (name === "enter") {
      const c = choices[cursor];
      if (c) onPick(c.name);
    } else if (/^[1-9]$/.test(name)) {
      const c = choices[Number(name) - 1];
      if (c) onPick(c.name);
    } else if (name === "escape" || name === "q" || name === "C-c") onCancel();
    return true;
  });
  const nameWidth = Math.min(24, Math.max(...choices.map((c) => c.name.length), 4));
  return (
    <Box flexDirection="column" paddingX={1}>
      <Text bold>termchat — choose an account</Text>
      <Text dimColor>j/k or ↑/↓ move · Enter or 1–9 choose · Esc quit (next time: termchat --account NAME)</Text>
      {choices.map((c, i) => {
        const selected = i === cursor;
        return (
          <Text key={c.name} wrap="truncate" inverse={selected}>
            {`${selected ? "▶" : " "} ${i < 9 ? String(i + 1) : " "}  ${sanitizeInline(c.name).padEnd(nameWidth)}  ${sanitizeInline(c.email)}  ${sanitizeInline(c.site)}`}
          </Text>
        );
      })}
    </Box>
  );
}

/** Shows the picker on the terminal; resolves with the chosen name, or undefined when the user gave up. */
export async function pickAccount(choices: AccountChoice[]): Promise<string | undefined> {
  const { render } = await import("ink");
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
