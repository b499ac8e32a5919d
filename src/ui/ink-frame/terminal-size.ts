/**
 * Ink's terminal-size, in its place (scripts/ink-patch.mjs). Ink asks it for the terminal's width
 * only when its output stream has none, that is when standard output is not a terminal. The
 * package then tries stderr, COLUMNS and LINES, /dev/tty, `tput` and `resize`; the last two run a
 * child process, and importing it loaded Node's child-process modules (with their sockets) at every
 * start, for a case the client never draws in. This asks the same sources that need no process:
 * stdout, stderr, COLUMNS and LINES, else 80 × 24 as the package does.
 */
const DEFAULT = { columns: 80, rows: 24 };

type Sized = { columns?: number; rows?: number } | undefined;

export default function terminalSize(streams: readonly Sized[] = [process.stdout, process.stderr], env: NodeJS.ProcessEnv = process.env): { columns: number; rows: number } {
  for (const stream of streams) {
    if (stream?.columns && stream.rows) return { columns: stream.columns, rows: stream.rows };
  }
  const columns = Number.parseInt(env.COLUMNS ?? "", 10);
  const rows = Number.parseInt(env.LINES ?? "", 10);
  return columns > 0 && rows > 0 ? { columns, rows } : DEFAULT;
}
