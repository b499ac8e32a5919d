/**
 * Starts the terminal probe (probe.ts) once Ink has the keyboard. It wraps the key bus: React
 * runs a parent's effects after its children's, so by then the bus's key reader has put the
 * input in raw mode (no answer is echoed) and the first frame is out (it never waits for the
 * terminal). Nothing is asked when input or output is not a terminal.
 */
import { useEffect, type ReactNode } from "react";
import { useStdin, useStdout } from "ink";
import { probeTerminal } from "./probe.js";

export function TerminalProbe({ images, env, children }: { images: boolean; env: Record<string, string | undefined>; children: ReactNode }) {
  const { stdout } = useStdout();
  const { isRawModeSupported } = useStdin();
  useEffect(() => {
    if (!isRawModeSupported || !stdout.isTTY) return;
    const probe = probeTerminal({ write: (bytes) => stdout.write(bytes), env, images, size: () => ({ columns: stdout.columns, rows: stdout.rows }) });
    return probe.stop;
  }, []); // asked once, for the life of the app
  return <>{children}</>;
}
