/** Helpers for driving the built termchat binary in tmux. */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { TmuxSession, type TmuxOptions } from "./tmux.js";

export const ROOT = resolve(import.meta.dirname, "../..");
export const BIN = resolve(ROOT, "bin/termchat.cjs");

/** The e2e tests run the built bundle; build it once if a plain `vitest` run skipped `npm run build`. */
export function ensureBuilt(): void {
  if (!existsSync(resolve(ROOT, "dist/termchat.cjs"))) {
    execFileSync(process.execPath, [resolve(ROOT, "scripts/build.mjs")], { cwd: ROOT, stdio: "inherit" });
  }
}

/**
 * A port free on 127.0.0.1 for a server the test starts next. Chosen below the kernel's range
 * of ephemeral ports: a port from that range (what listen(0) gives) can be taken by any outgoing
 * connection of the busy suite between this probe and the server's listen (EADDRINUSE); one
 * below it only by another test's choice, drawn at random from 12,000 and probed here.
 */
export async function freePort(): Promise<number> {
  const [low] = (() => {
    try {
      return readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    } catch {
      return [32768];
    }
  })();
  const top = Math.max(21000, Math.min(low ?? 32768, 32768) - 1);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = top - 12000 + Math.floor(Math.random() * 12000);
    if (await canListen(port)) return port;
  }
  throw new Error("no free port below the ephemeral range after 50 tries");
}

function canListen(port: number): Promise<boolean> {
  return new Promise((res) => {
    const srv = createServer();
    srv.once("error", () => res(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => res(true)));
  });
}

/**
 * Runs the built `termchat server` with these arguments (after `server`); resolves once its
 * output matches `ready` (at most 15 s), and fails with its output if it exits or never does.
 */
export function spawnServer(args: string[], ready: RegExp): Promise<ChildProcessWithoutNullStreams> {
  const server = spawn(process.execPath, [BIN, "server", ...args], { cwd: ROOT, env: { ...process.env, NO_COLOR: "1" } });
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}`)), 15_000);
    server.stdout.on("data", (c: Buffer) => {
      out += c.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(server);
      }
    });
    server.on("exit", (code) => reject(new Error(`the server exited (${code}):\n${out}`)));
  });
}

export async function startApp(args: string[], opts: TmuxOptions = {}): Promise<TmuxSession> {
  return TmuxSession.start([process.execPath, BIN, ...args], { cols: 110, rows: 30, cwd: ROOT, ...opts });
}

/** Calls the API of a running server as a demo user (logging in with the documented password). */
export async function apiAs(site: string, email: string) {
  const login = await fetch(`${site}/api/v1/fetch_api_key`, {
    method: "POST",
    body: new URLSearchParams({ username: email, password: "termchat-demo" }),
  });
  const { api_key } = (await login.json()) as { api_key: string };
  const auth = "Basic " + Buffer.from(`${email}:${api_key}`).toString("base64");
  return async (method: string, path: string, params: Record<string, string> = {}) => {
    const body = new URLSearchParams(params);
    const url = method === "GET" ? `${site}/api/v1/${path}?${body}` : `${site}/api/v1/${path}`;
    const res = await fetch(url, { method, headers: { authorization: auth }, body: method === "GET" ? undefined : body });
    return (await res.json()) as Record<string, unknown>;
  };
}

/** The newest messages of a channel's topic on a running server, read as `email` (a demo user). */
export async function topicMessages(site: string, email: string, channel: string, topic: string): Promise<Array<{ content: string; sender_email: string }>> {
  const call = await apiAs(site, email);
  const reg = await call("POST", "register", { fetch_event_types: JSON.stringify(["subscription"]) });
  const sub = (reg.subscriptions as Array<{ name: string; stream_id: number }>).find((s) => s.name === channel);
  if (!sub) throw new Error(`${email} is not subscribed to #${channel}`);
  const narrow = [
    { operator: "channel", operand: sub.stream_id },
    { operator: "topic", operand: topic },
  ];
  const res = await call("GET", "messages", { anchor: "newest", num_before: "10", num_after: "0", narrow: JSON.stringify(narrow), apply_markdown: "false" });
  return res.messages as Array<{ content: string; sender_email: string }>;
}

/** The message pane's title on the screen's first row, right of the sidebar (`sidebar` columns: 30 at 100 to 139 columns). */
export function paneTitle(text: string, sidebar = 30): RegExp {
  return new RegExp(`^.{${sidebar + 1}}${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} *\n`);
}

/**
 * Runs the built client in tmux on an account of a running server, from a home of its own (a
 * zuliprc for the account, its settings and cache): `done()` ends the client and removes the
 * home. Options as for startApp; the environment given is added to the home's.
 */
export async function startClientOn(
  site: string,
  account: { email: string; apiKey: string },
  opts: TmuxOptions = {},
): Promise<{ session: TmuxSession; home: string; done: () => Promise<void> }> {
  const home = mkdtempSync(join(tmpdir(), "termchat-e2e-home-"));
  const rc = join(home, "zuliprc");
  writeFileSync(rc, `[api]\nemail=${account.email}\nkey=${account.apiKey}\nsite=${site}\n`, { mode: 0o600 });
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_CACHE_HOME: join(home, "cache"), ...opts.env };
  let session: TmuxSession;
  try {
    session = await startApp(["--config", rc], { ...opts, env });
  } catch (err) {
    rmSync(home, { recursive: true, force: true });
    throw err;
  }
  return {
    session,
    home,
    done: async () => {
      await session.kill();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
