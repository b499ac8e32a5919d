/**
 * `termchat server --data demo|large`: the built binary starts the chosen
 * organization on 127.0.0.1, and refuses other values as a usage error.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, ensureBuilt } from "../e2e/app.js";

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
});

beforeAll(() => ensureBuilt());

function start(args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  children.push(child);
  return child;
}

/** Collects stdout until `pattern` matches (bounded by `timeoutMs`). */
function waitFor(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}\n${err}`)), timeoutMs);
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      const m = pattern.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}:\n${out}\n${err}`));
    });
  });
}

function exitOf(child: ChildProcessWithoutNullStreams, timeoutMs = 15_000): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => reject(new Error(`did not exit within ${timeoutMs} ms`)), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe("termchat server --data", () => {
  it("refuses a data set other than demo or large with exit status 2", async () => {
    const res = await exitOf(start(["server", "--data", "huge", "--port", "0"]));
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('--data expects demo or large, not "huge"');
  });

  it("serves the large organization with --data large", async () => {
    const child = start(["server", "--data", "large", "--port", "0"]);
    const [, url] = await waitFor(child, /\(large organization\) listening on (http:\/\/127\.0\.0\.1:\d+)/, 60_000);
    const res = await fetch(`${url}/api/v1/server_settings`, { signal: AbortSignal.timeout(5000) });
    expect(await res.json()).toMatchObject({ result: "success", realm_name: "Lighthouse Labs (large)" });
    child.kill("SIGTERM");
    expect((await exitOf(child)).code).toBe(0);
  }, 90_000);

  it("serves the demo organization by default", async () => {
    const child = start(["server", "--port", "0"]);
    const [, url] = await waitFor(child, /\(demo organization\) listening on (http:\/\/127\.0\.0\.1:\d+)/, 20_000);
    const res = await fetch(`${url}/api/v1/server_settings`, { signal: AbortSignal.timeout(5000) });
    expect(await res.json()).toMatchObject({ realm_name: "Lighthouse Labs" });
  });
});
