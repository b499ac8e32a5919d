import type { RegisterParams } from "../src/api/register-request.js";
import { clientRegisterParams } from "../src/sync/register-params.js";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

/** The value below which `p` percent of `xs` lie (nearest rank). */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? NaN;
}

export function printFigure(label: string, value: string | number, unit: string): void {
  process.stdout.write(`  ${label.padEnd(66)} ${String(value).padStart(10)} ${unit}\n`);
}

/** Starts the reference server with a data set in its own process (so it does not weigh on our heap). */
export async function startBenchServer(data: string) {
  const here = dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, [join(here, "serve.js"), data], { stdio: ["ignore", "pipe", "inherit"] });
  const first = await new Promise<string>((resolve, reject) => {
    const rl = createInterface({ input: child.stdout! });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const info = JSON.parse(first) as { url: string; email: string; apiKey: string; seedMs: number };
  return {
    ...info,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  };
}

/**
 * The client's register with the user list in it: a store as it is once the list has come
 * (the client asks the register for no users and fetches them apart, sync/user-list.ts).
 */
export function wholeRegisterParams(): RegisterParams {
  const p = clientRegisterParams();
  return { ...p, fetch_event_types: [...(p.fetch_event_types ?? []), "realm_user"] };
}
