/**
 * The scriptable subcommands end to end: the built binary (`node
 * bin/termchat.cjs …`) against the reference server on a free port. Checks
 * exit codes, output, the server-side effect, and that no credential is
 * ever printed.
 */
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiClient } from "../../src/api/http.js";
import { getMessage } from "../../src/api/routes/messages.js";
import { getUserStatus } from "../../src/api/routes/status.js";
import { getSubscriptions } from "../../src/api/routes/subscriptions.js";
import { getOwnUser } from "../../src/api/routes/users.js";
import { writeZuliprc } from "../../src/config/zuliprc.js";
import { ensureBuilt } from "../e2e/app.js";
import { runCli, type CliRun } from "../fixtures/run-cli.js";
import { withServer, type ServerFixture } from "../fixtures/server.js";

/** Runs the binary with a bounded time; stdin gets `input` (or is closed at once). */
function termchat(args: string[], input = "", timeoutMs = 15_000): Promise<CliRun> {
  return runCli(args, { input, timeoutMs });
}

let ctx: ServerFixture;
let owner: ApiClient;
let dir: string;
let rc: string;
let channel: string;
const secrets: string[] = [];

beforeAll(async () => {
  ensureBuilt();
  ctx = await withServer();
  owner = ctx.client();
  dir = await mkdtemp(join(tmpdir(), "termchat-cli-"));
  rc = join(dir, "zuliprc");
  await writeZuliprc(rc, { email: ctx.owner.email, key: ctx.owner.apiKey, site: ctx.server.url });
  secrets.push(ctx.owner.apiKey, "termchat-demo");
  const subs = await getSubscriptions(owner);
  const first = subs.subscriptions.find((s) => !s.is_archived);
  if (!first) throw new Error("the demo owner has no subscriptions");
  channel = first.name;
}, 60_000);

afterAll(async () => {
  await ctx?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

function expectNoSecrets(r: CliRun): void {
  for (const s of secrets) {
    expect(r.stdout).not.toContain(s);
    expect(r.stderr).not.toContain(s);
  }
}

describe("termchat send", () => {
  it("posts to a channel topic and prints the message ID", async () => {
    const r = await termchat(["send", "--config", rc, "--channel", channel, "--topic", "cli test", "--message", "hello from the CLI"]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expectNoSecrets(r);
    const id = Number(r.stdout.trim());
    expect(Number.isInteger(id)).toBe(true);
    const { message } = await getMessage(owner, id, { apply_markdown: false });
    expect(message.content).toBe("hello from the CLI");
    expect(message.subject).toBe("cli test");
  });

  it("reads the text from stdin", async () => {
    const r = await termchat(["send", "--config", rc, "--channel", channel, "--topic", "cli test", "--allow-insecure-http"], "line one\nline two\n");
    expect(r.code).toBe(0);
    const { message } = await getMessage(owner, Number(r.stdout.trim()), { apply_markdown: false });
    expect(message.content).toBe("line one\nline two");
  });

  it("sends a direct message with --to", async () => {
    const other = ctx.server.accounts.find((a) => a.email !== ctx.owner.email);
    if (!other) throw new Error("need a second demo account");
    const r = await termchat(["send", "--config", rc, "--to", other.email, "--message", "psst"]);
    expect(r.code).toBe(0);
    const { message } = await getMessage(owner, Number(r.stdout.trim()), { apply_markdown: false });
    expect(message.type).toBe("private");
  });

  it("a refusal by the server exits 1 with `termchat: <msg> (<CODE>)`", async () => {
    const r = await termchat(["send", "--config", rc, "--channel", "no such channel 42x", "--topic", "t", "--message", "x"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^termchat: .+ \([A-Z_]+\)\n$/);
    expectNoSecrets(r);
  });

  it("a usage error exits 2", async () => {
    const r = await termchat(["send", "--config", rc, "--channel", channel]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--channel needs --topic/);
  });

  it("an unreachable server exits 1", async () => {
    const r = await termchat(["send", "--site", "http://127.0.0.1:1", "--email", "a@b.c", "--api-key", "not-a-real-key", "--to", "x@y.z", "-m", "hi"]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe("termchat: nothing answers at 127.0.0.1:1 (is the server running, is the URL right?)\n");
    expect(r.stderr).not.toContain("not-a-real-key");
  });

  it("a missing zuliprc is a configuration error (exit 2)", async () => {
    const r = await termchat(["send", "--config", join(dir, "missing"), "--to", "x@y.z", "-m", "hi"]);
    expect(r.code).toBe(2);
  });
});

describe("termchat messages", () => {
  it("prints `time  sender  #channel > topic: first line`", async () => {
    const r = await termchat(["messages", "--config", rc, "--channel", channel, "--topic", "cli test", "--limit", "10"]);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split("\n");
    expect(lines.some((l) => l.endsWith(`#${channel} > cli test: hello from the CLI`))).toBe(true);
    expect(lines.some((l) => l.endsWith("cli test: line one …"))).toBe(true);
  });

  it("--json prints the messages array", async () => {
    const r = await termchat(["messages", "--config", rc, "--channel", channel, "--topic", "cli test", "--json"]);
    expect(r.code).toBe(0);
    const messages = JSON.parse(r.stdout) as Array<{ content: string }>;
    expect(Array.isArray(messages)).toBe(true);
    expect(messages.map((m) => m.content)).toContain("hello from the CLI");
  });
});

describe("termchat status", () => {
  it("sets the status text and emoji, and shows it", async () => {
    const set = await termchat(["status", "--config", rc, "--text", "at lunch", "--emoji", "coffee"]);
    expect(set.stderr).toBe("");
    expect(set.code).toBe(0);
    const me = await getOwnUser(owner);
    const { status } = await getUserStatus(owner, me.user_id);
    expect(status.status_text).toBe("at lunch");
    const show = await termchat(["status", "--config", rc]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain("at lunch");
    const clear = await termchat(["status", "--config", rc, "--clear"]);
    expect(clear.code).toBe(0);
  });
});

describe("termchat api", () => {
  it("GET users/me prints pretty JSON", async () => {
    const r = await termchat(["api", "--config", rc, "GET", "users/me"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\{\n {2}"/);
    expect(JSON.parse(r.stdout)).toMatchObject({ result: "success", email: ctx.owner.email });
    expectNoSecrets(r);
  });

  it("sends JSON-looking values as JSON", async () => {
    const r = await termchat(["api", "--config", rc, "GET", "messages", "anchor=newest", "num_before=2", "num_after=0", `narrow=[{"operator":"channel","operand":${JSON.stringify(channel)}}]`]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { messages: unknown[] }).messages.length).toBeLessThanOrEqual(2);
  });

  it("an error prints the envelope as JSON and exits 1", async () => {
    const r = await termchat(["api", "--config", rc, "GET", "messages/987654321"]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ result: "error" });
    expect(r.stderr).toMatch(/^termchat: .+ \([A-Z_]+\)\n$/);
  });
});

describe("termchat login", () => {
  it("logs in with the password from stdin and writes a 0600 zuliprc; prints no secret", async () => {
    const path = join(dir, "login-rc");
    const r = await termchat(["login", "--site", ctx.server.url, "--email", ctx.owner.email, "--config", path], "termchat-demo\n");
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`wrote ${path}`);
    expectNoSecrets(r);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readFile(path, "utf8")).toContain(`email=${ctx.owner.email}`);
    const again = await termchat(["messages", "--config", path, "--limit", "1", "--json"]);
    expect(again.code).toBe(0);
  });

  it("a wrong password exits 1 without echoing it", async () => {
    const r = await termchat(["login", "--site", ctx.server.url, "--email", ctx.owner.email, "--config", join(dir, "bad-rc")], "wrong-password-xyz\n");
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^termchat: /);
    expect(r.stderr + r.stdout).not.toContain("wrong-password-xyz");
  });
});
