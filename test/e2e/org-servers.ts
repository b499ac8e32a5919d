/**
 * Several organizations for end-to-end tests: reference servers side by side
 * on 127.0.0.1 (`termchat server --port P --zuliprc-dir DIR`, the built
 * binary), each one an organization; one can be stopped and started again on
 * its port (its data is seeded the same, its demo keys are the same), and a
 * HOME whose accounts directory names one account of each.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { chmod, copyFile, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BIN, ROOT, freePort } from "./app.js";

export interface OrgServer {
  name: string;
  port: number;
  url: string;
  /** Where the server wrote a zuliprc per demo account. */
  zuliprcDir: string;
  /** Stops the server (SIGTERM) and waits until it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  restart(): Promise<void>;
  running(): boolean;
}

function startProcess(port: number, dir: string): Promise<ChildProcessWithoutNullStreams> {
  const proc = spawn(process.execPath, [BIN, "server", "--port", String(port), "--zuliprc-dir", dir], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}`)), 20_000);
    proc.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (/Wrote \d+ zuliprc files/.test(out)) {
        clearTimeout(timer);
        resolve(proc);
      }
    });
    proc.stderr.on("data", (c: Buffer) => (out += c.toString()));
    proc.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}):\n${out}`));
    });
  });
}

export async function startOrgServer(name: string, root: string): Promise<OrgServer> {
  const port = await freePort();
  const zuliprcDir = join(root, `server-${name}`);
  let proc: ChildProcessWithoutNullStreams | undefined = await startProcess(port, zuliprcDir);
  return {
    name,
    port,
    url: `http://127.0.0.1:${port}`,
    zuliprcDir,
    async stop() {
      const p = proc;
      proc = undefined;
      if (!p || p.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        p.once("exit", () => resolve());
        p.kill("SIGTERM");
      });
    },
    running: () => proc !== undefined,
    async restart() {
      proc = await startProcess(port, zuliprcDir);
    },
  };
}

/** A fresh HOME whose accounts directory has `who`'s account on each server, named as the server. */
export async function homeWithAccounts(servers: OrgServer[], who = "maya", extra: Record<string, string> = {}): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "termchat-orgs-home-"));
  const accounts = join(home, ".config", "termchat", "accounts");
  await mkdir(accounts, { recursive: true, mode: 0o700 });
  for (const s of servers) {
    const to = join(accounts, `${s.name}.zuliprc`);
    await copyFile(join(s.zuliprcDir, `${who}.zuliprc`), to);
    await chmod(to, 0o600);
  }
  for (const [name, text] of Object.entries(extra)) await writeFile(join(accounts, `${name}.zuliprc`), text, { mode: 0o600 });
  return home;
}

export async function removeHome(home: string): Promise<void> {
  await rm(home, { recursive: true, force: true });
}

export { ROOT };
