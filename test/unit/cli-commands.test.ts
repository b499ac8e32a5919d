/** Parsing of the scriptable subcommands, and their pure helpers. */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Message } from "../../src/api/schemas/common.js";
import { UsageError, parseCliArgs } from "../../src/cli/args.js";
import { parseParam, type SendArgs } from "../../src/cli/args-commands.js";
import { messageText } from "../../src/cli/commands/send.js";
import { firstLine, formatMessageLine, narrowFor } from "../../src/cli/commands/messages.js";
import { safeJson, type CommandIO } from "../../src/cli/commands/io.js";
import { statusParams } from "../../src/cli/commands/status.js";
import { COMMAND_HELP } from "../../src/cli/help-commands.js";

const parse = (...argv: string[]) => parseCliArgs(argv, {});
const usage = (argv: string[], re: RegExp) => {
  expect(() => parseCliArgs(argv, {})).toThrow(UsageError);
  expect(() => parseCliArgs(argv, {})).toThrow(re);
};

describe("termchat login", () => {
  it("takes site, email, config, force, and the TLS options", () => {
    expect(parse("login", "--site", "chat.example.com", "--email", "a@b.c", "--config", "/tmp/rc", "--force", "--ca-file", "/ca.pem")).toEqual({
      command: "login",
      site: "chat.example.com",
      username: "a@b.c",
      config: "/tmp/rc",
      force: true,
      allowInsecureHttp: false,
      caFile: "/ca.pem",
    });
  });

  it("accepts --username for LDAP logins, but not together with --email", () => {
    expect(parse("login", "--username", "jdoe")).toMatchObject({ username: "jdoe" });
    usage(["login", "--username", "x", "--email", "y@z"], /not both/);
  });

  it("has no --password option (passwords do not belong on command lines)", () => {
    usage(["login", "--password", "hunter2"], /password/);
  });

  it("has its own help", () => {
    expect(parse("login", "--help")).toEqual({ command: "help", topic: "login" });
    expect(COMMAND_HELP.login).toMatch(/without echo/);
  });
});

describe("termchat send", () => {
  it("to a channel by name or by ID, with a topic", () => {
    expect(parse("send", "--channel", "general", "--topic", "lunch", "--message", "hi")).toMatchObject({
      command: "send",
      channel: "general",
      topic: "lunch",
      message: "hi",
      account: { allowInsecureHttp: false },
    });
    expect(parse("send", "-c", "#42", "-t", "x", "-m", "hi")).toMatchObject({ channel: 42 });
  });

  it("direct messages to a comma-separated list", () => {
    expect(parse("send", "--to", "a@x.org, b@x.org", "--message", "yo")).toMatchObject({ to: ["a@x.org", "b@x.org"] });
  });

  it("the text may come from stdin (no --message)", () => {
    expect(parse("send", "--to", "a@x.org")).toMatchObject({ message: undefined });
  });

  it("refuses incomplete or contradictory destinations", () => {
    usage(["send", "--message", "hi"], /say where to send/);
    usage(["send", "--channel", "general", "--message", "hi"], /--channel needs --topic/);
    usage(["send", "--channel", "g", "--topic", "t", "--to", "a@b"], /not both/);
    usage(["send", "--to", "a@b", "--topic", "t"], /--topic applies to --channel/);
    usage(["send", "--to", "nobody"], /not an email/);
    usage(["send", "--to", "a@b", "--message", "  "], /must not be empty/);
    usage(["send", "--to", "a@b", "extra"], /unexpected argument "extra"/);
  });

  it("takes the account options, all three direct ones together", () => {
    expect(parse("send", "--to", "a@b", "-m", "x", "--site", "https://s", "--email", "e@s", "--api-key", "k", "--allow-insecure-http")).toMatchObject({
      account: { site: "https://s", email: "e@s", apiKey: "k", allowInsecureHttp: true },
    });
    usage(["send", "--to", "a@b", "--site", "https://s"], /go together/);
    usage(["send", "--to", "a@b", "--config", "/rc", "--site", "s", "--email", "e", "--api-key", "k"], /either --config/);
  });
});

describe("termchat status", () => {
  it("sets text, emoji (colons optional), away/back", () => {
    expect(parse("status", "--text", "lunch", "--emoji", ":coffee:", "--away")).toMatchObject({ text: "lunch", emoji: "coffee", away: true, clear: false });
    expect(parse("status", "--back")).toMatchObject({ away: false });
    expect(parse("status")).toMatchObject({ command: "status", away: undefined, clear: false });
  });

  it("refuses contradictions and over-long text", () => {
    usage(["status", "--clear", "--text", "x"], /--clear/);
    usage(["status", "--away", "--back"], /not both/);
    usage(["status", "--text", "x".repeat(61)], /too long/);
    usage(["status", "--emoji", "two words"], /emoji name/);
  });

  it("maps options to the update parameters (nothing → show the status)", () => {
    const base = { command: "status", account: { allowInsecureHttp: false }, clear: false } as const;
    expect(statusParams({ ...base, clear: true })).toEqual({ status_text: "", emoji_name: "" });
    expect(statusParams({ ...base, text: "hi", away: false })).toEqual({ status_text: "hi", away: false });
    expect(statusParams({ ...base })).toBeUndefined();
  });
});

describe("termchat messages", () => {
  it("builds a narrow from channel, topic, dm and search", () => {
    const a = parse("messages", "--channel", "general", "--topic", "lunch", "--search", "pizza", "--limit", "5", "--json");
    expect(a).toMatchObject({ command: "messages", limit: 5, json: true });
    expect(narrowFor(a as Parameters<typeof narrowFor>[0])).toEqual([
      { operator: "channel", operand: "general" },
      { operator: "topic", operand: "lunch" },
      { operator: "search", operand: "pizza" },
    ]);
    expect(narrowFor({ dm: ["a@b", "c@d"] })).toEqual([{ operator: "dm", operand: ["a@b", "c@d"] }]);
    expect(parse("messages")).toMatchObject({ limit: 20, json: false });
  });

  it("refuses bad limits and contradictions", () => {
    usage(["messages", "--limit", "0"], /--limit/);
    usage(["messages", "--limit", "5001"], /--limit/);
    usage(["messages", "--limit", "ten"], /--limit/);
    usage(["messages", "--topic", "t"], /--topic needs --channel/);
    usage(["messages", "--channel", "c", "--dm", "a@b"], /not both/);
  });

  const msg = (o: Partial<Message>): Message =>
    ({
      id: 1,
      sender_id: 2,
      sender_full_name: "Ada",
      sender_email: "ada@x",
      type: "stream",
      display_recipient: "general",
      subject: "lunch",
      timestamp: 1_763_800_000,
      content: "pizza?\nor sushi",
      flags: [],
      reactions: [],
      is_me_message: false,
      ...o,
    }) as Message;
  const now = { now: 1_763_800_000, timeZone: "UTC" };

  it("formats `time  sender  #channel > topic: first line`", () => {
    expect(formatMessageLine(msg({}), now)).toBe("08:26  Ada  #general > lunch: pizza? …");
  });

  it("formats DMs with the other participants", () => {
    const dm = msg({ type: "private", display_recipient: [{ id: 2, email: "ada@x", full_name: "Ada" }, { id: 3, email: "bo@x", full_name: "Bo" }], content: "hi" });
    expect(formatMessageLine(dm, now)).toBe("08:26  Ada  → Bo: hi");
  });

  it("sanitizes every server string", () => {
    const evil = msg({ sender_full_name: "Ada\u001b]0;pwned\u0007", display_recipient: "gen\u009b2Jeral", subject: "t\u202eopic", content: "\u001b[31mred" });
    const line = formatMessageLine(evil, now);
    expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(line).toContain("Ada");
  });

  it("first line skips blank lines", () => {
    expect(firstLine("\n\n  hello  \n")).toBe("hello");
    expect(firstLine("")).toBe("");
  });
});

describe("termchat api", () => {
  it("parses METHOD PATH and key=value parameters, JSON values as such", () => {
    expect(parse("api", "post", "/api/v1/messages/flags", "messages=[1,2]", "op=add", "flag=read", "n=5", "b=true", 'q="5"', "s=a=b")).toMatchObject({
      command: "api",
      method: "POST",
      path: "messages/flags",
      params: { messages: [1, 2], op: "add", flag: "read", n: 5, b: true, q: "5", s: "a=b" },
    });
  });

  it("refuses what it cannot send", () => {
    usage(["api"], /usage: termchat api/);
    usage(["api", "FETCH", "users"], /unknown method/);
    usage(["api", "GET", "https://evil.example/x"], /relative to \/api\/v1/);
    usage(["api", "GET", "users/../../admin"], /relative/);
    usage(["api", "GET", "users/%2E%2E/admin"], /relative/);
    usage(["api", "GET", "users?x=1"], /key=value/);
    usage(["api", "GET", "users", "novalue"], /key=value/);
    usage(["api", "GET", "users", "a=1", "a=2"], /twice/);
  });

  it("parseParam keeps non-JSON text as a string", () => {
    expect(parseParam("topic=lunch plans")).toEqual(["topic", "lunch plans"]);
    expect(parseParam("narrow=[]")).toEqual(["narrow", []]);
    expect(parseParam("empty=")).toEqual(["empty", ""]);
  });
});

describe("helpers", () => {
  it("safeJson escapes C1 controls and bidi overrides, and stays valid JSON", () => {
    const v = { s: "a\u009b2Jb\u202ec\u001bd" };
    const out = safeJson(v);
    expect(out).not.toMatch(/[\u001b\u007f-\u009f\u202a-\u202e]/);
    expect(out).toContain("\\u009b");
    expect(JSON.parse(out)).toEqual(v);
  });

  it("send reads the text from stdin, minus one trailing newline", async () => {
    const stdin = new PassThrough();
    const io = { stdin, stdout: new PassThrough(), stderr: new PassThrough() } as CommandIO;
    stdin.end("line one\nline two\n");
    await expect(messageText({ command: "send", account: { allowInsecureHttp: false }, to: ["a@b"] }, io)).resolves.toBe("line one\nline two");
  });

  it("send refuses an empty stdin, and a terminal without --message", async () => {
    const empty = new PassThrough();
    empty.end("\n");
    const io = { stdin: empty, stdout: new PassThrough(), stderr: new PassThrough() } as CommandIO;
    const args: SendArgs = { command: "send", account: { allowInsecureHttp: false }, to: ["a@b"] };
    await expect(messageText(args, io)).rejects.toThrow(/empty/);
    const tty = Object.assign(new PassThrough(), { isTTY: true });
    await expect(messageText(args, { ...io, stdin: tty })).rejects.toThrow(/--message/);
  });

  it("the top-level help lists the subcommands and exit codes", async () => {
    const { HELP } = await import("../../src/cli/args.js");
    for (const c of ["login", "send", "status", "messages", "api"]) expect(HELP).toContain(`termchat ${c}`);
    expect(HELP).toMatch(/Exit status: 0 ok, 1 .*2 usage/);
  });

  it("existing behaviour is kept: the client and server commands parse as before", () => {
    expect(parse("--config", "/tmp/rc")).toMatchObject({ command: "client", config: "/tmp/rc" });
    expect(parse("server", "--port", "0")).toEqual({ command: "server", port: 0, data: "demo", zuliprcDir: undefined });
    usage(["frobnicate"], /unknown command "frobnicate"/);
  });
});
