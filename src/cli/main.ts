/**
 * Entry point: parses arguments, then runs the client (default), the demo,
 * the standalone reference server, or a scriptable subcommand (login, send,
 * status, messages, api). Errors end as one clear line, never a stack trace:
 * exit status 1 when the server refused or the network failed, 2 for usage
 * and configuration errors.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HELP, UsageError, parseCliArgs, type ClientArgs, type ServerArgs } from "./args.js";
import { COMMAND_HELP } from "./help-commands.js";
import { INSECURE_NOTE, readTlsFiles } from "./tls-files.js";
import { VERSION } from "./version.js";
import { describeError } from "../api/errors.js";
import { ApiClient } from "../api/http.js";
import { SiteError } from "../api/site.js";
import { withoutProxy } from "../api/dispatcher.js";
import { registerRequest } from "../api/register-request.js";
import { registerParamsFor } from "../sync/register-params.js";
import type { SettingsFile } from "../config/settings.js";
import { ConfigError } from "../config/zuliprc.js";
import { sanitize } from "../render/sanitize.js";
import { cachePath, defaultCacheDir, readAhead } from "../sync/cache-ahead.js";


function fail(message: string, code: number): never {
  // Messages may quote the server: no escape sequence reaches the terminal.
  process.stderr.write(`termchat: ${sanitize(message, { multiline: true })}\n`);
  process.exit(code);
}

async function runServer(args: ServerArgs): Promise<void> {
  const { startServer, writeZuliprcs } = await import("../server/index.js");
  const server = await startServer({ port: args.port, data: args.data }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "EADDRINUSE") fail(`port ${args.port} is already in use; pick another with --port`, 1);
    throw err;
  });
  const owner = server.accounts[0];
  const out = [`termchat reference server (${args.data} organization) listening on ${server.url}`];
  if (args.zuliprcDir) {
    const files = await writeZuliprcs(args.zuliprcDir, server);
    out.push(`Wrote ${files.length} zuliprc files to ${args.zuliprcDir}; for example:`, `  termchat --config ${files[0]}`);
  }
  else {
    out.push(`To get a zuliprc for every demo account, start it with --zuliprc-dir DIR.`);
  }
  out.push(
    `Every demo account's password is "termchat-demo" (POST ${server.url}/api/v1/fetch_api_key gives its API key; owner: ${owner?.email ?? "?"}).`,
    `Accounts: ${server.accounts.map((a) => `${a.email} (${a.role})`).join(", ")}`,
    "Press Ctrl-C to stop.",
  );
  process.stdout.write(out.join("\n") + "\n");
  const stop = () => void server.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

interface Account {
  site: string;
  email: string;
  apiKey: string;
  allowInsecureHttp: boolean;
  caFile?: string;
  clientCert?: string;
  clientCertKey?: string;
  insecure?: boolean;
  spectator?: boolean;
  /** A server this process runs (the demo's): reached directly, never through a proxy from the environment. */
  ownServer?: boolean;
}

/**
 * Said when the demo starts, and again once it has ended: its organization
 * lives in this process only, and how to run one that lasts.
 */
export function demoNotes(ownerEmail: string): { start: string; end: string } {
  const owner = ownerEmail.split("@")[0] || "owner";
  const keep = `To keep one: termchat server --zuliprc-dir DIR, then termchat --config DIR/${owner}.zuliprc`;
  return { start: `Demo: this organization lives in memory and is gone at exit. ${keep}`, end: `The demo organization lived in memory and is gone. ${keep}` };
}

async function resolveAccount(args: ClientArgs): Promise<{ account: Account; close?: () => Promise<void>; notes?: { start: string; end: string } }> {
  if (args.demo) {
    const { startServer } = await import("../server/index.js");
    const server = await startServer({ port: args.port ?? 0 });
    const owner = server.accounts[0];
    if (!owner) throw new Error("the demo server has no accounts");
    return {
      account: { site: server.url, email: owner.email, apiKey: owner.apiKey, allowInsecureHttp: false, ownServer: true },
      close: () => server.close(),
      notes: demoNotes(owner.email),
    };
  }
  const { resolveAccount: resolveFromOptions } = await import("./account.js");
  // Several accounts and none named connect together in a terminal (runSeveralIfConfigured); elsewhere it is an error listing them.
  return { account: await resolveFromOptions(args) };
}

/**
 * Colour detection runs when the UI modules load, so decide before that:
 * CI=false means "not CI" (Ink reads it so, the colour detector does not),
 * and --no-color / NO_COLOR turn colour off.
 */
function prepareTerminalEnv(args: ClientArgs): void {
  if (process.env.CI === "false" || process.env.CI === "0") delete process.env.CI;
  if (!args.color) process.env.FORCE_COLOR = "0";
}

/** What the launcher (bin/termchat.cjs) offers the program. */
export interface Launcher {
  /** Keep the code compiled so far for the next start (V8's code cache): call when a run has done its typical work. */
  keepCompiledCode?: () => void;
}

/** Once the first frame is drawn: the compiled code is kept 3 s later (the register's handling compiled by then), or at exit. */
/**
 * After the first frame: the compiled code kept for the next start (3 s later, or at exit), and
 * only then the heap's steady growth, a V8 flag that would make the kept code cache another
 * flag set's, refused by the next start.
 */
function keepCodeAfterFirstFrame(launcher: Launcher): () => void {
  return () => {
    let kept = false;
    const keep = () => {
      if (kept) return;
      kept = true;
      launcher.keepCompiledCode?.();
      // Loaded with the UI already (a client run has drawn its first frame).
      void import("../ui/startup-memory.js").then((m) => m.steadyHeapGrowth());
    };
    setTimeout(keep, 3000).unref();
    process.once("exit", keep);
  };
}

/**
 * What follows a client's first frame: the compiled code kept (above), and the schemas of the
 * answers the start waits for made while the register is under way (src/api/schemas/prepare.ts).
 */
function afterFirstFrame(launcher: Launcher): () => void {
  const keep = keepCodeAfterFirstFrame(launcher);
  return () => {
    keep();
    setImmediate(() => void import("../api/schemas/prepare.js").then((m) => m.prepareStartSchemas()));
  };
}

async function runClient(args: ClientArgs, launcher: Launcher): Promise<void> {
  prepareTerminalEnv(args);
  // Several accounts configured and none named: in a terminal, all of them at once.
  if (!args.demo && process.stdin.isTTY && process.stdout.isTTY && (await runSeveralIfConfigured(args, launcher))) return;
  const { account, close, notes } = await resolveAccount(args);
  const tls = await readTlsFiles(account);
  // A spectator (--spectator, or an entry with spectator=true) has no credentials to send.
  const client = new ApiClient(
    account.spectator ? { site: account.site, spectator: true } : { site: account.site, email: account.email, apiKey: account.apiKey },
    { allowInsecureHttp: account.allowInsecureHttp, ...tls, userAgent: `termchat/${VERSION}`, ...(account.ownServer ? { env: withoutProxy(process.env) } : {}) },
  );
  // Register first: the modules that read its answer, the outbox's and the UI's, load while the
  // server answers, once the request is on its way (loading them first would hold it back).
  await client.prefetch("POST", "register", registerRequest(registerParamsFor(client)));
  // The register names no user: the user's own record comes beside it (sync/user-list.ts). A
  // spectator is no user.
  if (!client.spectator) await client.prefetch("GET", "users/me", {});
  performance.mark("termchat:register-sent");
  // The last run's state draws the first screen while the register is under way (never for the demo).
  // Nor for a spectator: what it reads is public and fetched afresh.
  const cacheDir = args.demo || args.noCache || client.spectator ? undefined : defaultCacheDir();
  // Its file is read and decompressed before the code that uses it loads (cache-ahead.ts).
  if (cacheDir) readAhead(cachePath(cacheDir, { site: client.site.href, email: account.email }));
  // In a terminal the UI's modules load meanwhile too: the first frame (from the cache, when there is one) waits for them.
  const uiReady = process.stdin.isTTY ? import("../ui/run.js") : undefined;
  // The UI's modules, once loaded: the start's garbage is collected with them (see beforeUserList).
  let uiModules: Awaited<typeof uiReady> | undefined;
  uiReady?.then((m) => {
    uiModules = m;
    performance.mark("termchat:ui-modules");
  }, () => undefined); // a failure is reported where it is awaited
  // The settings file too, read while the session opens: the first frame needs it.
  const settingsReady = import("../config/settings.js").then(async (m) => {
    const file = await m.readSettings();
    performance.mark("termchat:settings");
    return file;
  });
  settingsReady.catch(() => undefined); // its failure is reported where it is awaited
  const [{ AccountsRegistry }, { checkedRegister, startGuard }] = await Promise.all([import("../sync/accounts-registry.js"), import("../sync/start-guard.js")]);
  performance.mark("termchat:sync-modules");
  // The outbox and the draft journal live in the state directory (a throw-away one for the demo).
  const stateDir = args.demo ? await mkdtemp(join(tmpdir(), "termchat-demo-")) : undefined;
  // Every open account has its runtime in the registry; the screen is given the active one's handle.
  const accounts = new AccountsRegistry();
  const { runtime, handle } = await accounts.open({
    client,
    account: { site: client.site.href, email: account.email },
    stateDir,
    cacheDir,
    // The first screen is drawn before the whole user list is in; it comes right after.
    machine: { api: { register: checkedRegister() }, startGuard: startGuard({ client, email: account.email }), usersAfterStart: true, beforeUserList: () => uiModules?.collectGarbage() },
  });
  performance.mark("termchat:session");
  runtime.installSignalHandlers();
  const { machine } = runtime;
  let startError: unknown;
  let app: { unmount(): void; waitUntilExit(): Promise<unknown> } | undefined;
  let startLine: string | undefined;
  const started = runtime.start().catch((err: unknown) => {
    startError = err;
    if (machine.state.kind === "failed") startLine = machine.state.error;
    app?.unmount();
  });
  // Outside a terminal the app cannot run: the start still says whether the server would have answered.
  const terminal = Boolean(process.stdin.isTTY);
  if (!terminal) await started;
  const [ui, settingsFile] = await Promise.all([uiReady ?? import("../ui/run.js"), settingsReady]);
  // Warnings first, in the warning colour; the demo's note alone is only information.
  const warnings = [tls.insecure ? INSECURE_NOTE : undefined, runtime.cache?.note].filter(Boolean);
  const noticeText = [...warnings, notes?.start].filter(Boolean).join(" ");
  const startNotice = noticeText ? { text: noticeText, kind: warnings.length > 0 ? ("error" as const) : ("info" as const) } : undefined;
  app = startError || !terminal ? undefined : ui.runApp({ account: handle, settings: settingsFile.settings, color: args.color, startNotice }, afterFirstFrame(launcher));
  if (app) await app.waitUntilExit();
  else await started;
  await accounts.closeAll(1500);
  if (stateDir) await rm(stateDir, { recursive: true, force: true });
  await client.close();
  await close?.();
  if (startError) {
    fail(startLine ?? `could not connect to ${client.site.host}: ${describeError(startError)}`, 1);
  }
  if (!terminal) fail("the app needs a terminal (stdin is not one); scripts can use termchat send, messages, status and api", 2);
  // Once more where it stays readable: the screen the demo drew is gone.
  if (notes) process.stdout.write(`termchat: ${notes.end}\n`);
  process.exit(0);
}

/** Runs the app on every configured account when there are several and none is named; false when one account applies. */
async function runSeveralIfConfigured(args: ClientArgs, launcher: Launcher): Promise<boolean> {
  const { resolveSeveral } = await import("./account.js");
  // The settings are read only when several accounts are configured (with one, after the register).
  let read: SettingsFile | undefined;
  const accounts = await resolveSeveral(args, async () => {
    read = await (await import("../config/settings.js")).readSettings();
    return read.settings.organizations.connect;
  });
  const settingsFile = read as SettingsFile | undefined;
  if (!accounts || !settingsFile) return false;
  const { runSeveral } = await import("./run-several.js");
  const { failed } = await runSeveral(accounts, { color: args.color, noCache: args.noCache, settingsFile, afterFirstFrame: afterFirstFrame(launcher) });
  if (failed) fail(failed.join("\n"), 1);
  process.exit(0);
}

export async function main(argv: string[], launcher: Launcher = {}): Promise<void> {
  let args;
  try {
    args = parseCliArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) fail(`${err.message}\nTry "termchat --help".`, 2);
    throw err;
  }
  switch (args.command) {
    case "help":
      process.stdout.write(args.topic ? COMMAND_HELP[args.topic] : HELP);
      return;
    case "version":
      process.stdout.write(`termchat ${VERSION}\n`);
      return;
    case "server":
      await runServer(args);
      setTimeout(() => launcher.keepCompiledCode?.(), 3000).unref();
      return;
    case "cache": {
      const { runCacheCommand } = await import("./cache-command.js");
      return runCacheCommand(args, (line) => process.stdout.write(`${line}\n`));
    }
    case "client":
      return runClient(args, launcher);
    case "login":
    case "send":
    case "status":
    case "messages":
    case "api": {
      const { runSubcommand } = await import("./commands/index.js");
      process.exitCode = await runSubcommand(args);
      if (process.exitCode === 0) launcher.keepCompiledCode?.();
      return;
    }
  }
}

/**
 * The bundle's entry: bin/termchat.cjs loads the bundle as a module and calls this with the
 * command line. Errors end as one clear line.
 */
export function run(argv: string[], launcher: Launcher = {}): void {
  // The start's phases, for TERMCHAT_TRACE_STARTUP: this mark is where the entry's own modules have loaded.
  performance.mark("termchat:entry");
  main(argv, launcher).catch((err: unknown) => {
    if (err instanceof ConfigError || err instanceof SiteError || err instanceof UsageError) fail(err.message, 2);
    if (err instanceof Error && err.name === "FirstContactError") fail(err.message, 1);
    fail(describeError(err), 1);
  });
}

/** The image decoder thread's host, evaluated when asked for: the bundle's own test decodes with it. */
export const imageDecoderHost = async () => new (await import("../render/images/worker-host.js")).ImageDecoderHost();
