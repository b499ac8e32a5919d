/** Password login: prompts (terminal and pipe), fetch_api_key, the zuliprc written 0600, secrets never printed. */
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "../../src/api/errors.js";
import { SiteError } from "../../src/api/site.js";
import { LoginCancelled, passwordLogin, type LoginDeps } from "../../src/config/login.js";
import { ConfigError, readZuliprc } from "../../src/config/zuliprc.js";
import { runLogin } from "../../src/cli/commands/login.js";

const PASSWORD = "correct horse battery staple";
const KEY = "s3cr3tApiKeyValue0123456789abcdef";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "termchat-login-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function capture() {
  const out = new PassThrough();
  let text = "";
  out.on("data", (c: Buffer) => (text += c.toString()));
  return { out, text: () => text };
}

function fakeServer(reply: "ok" | ApiError = "ok") {
  const calls: Array<{ site: string; username: string; password: string }> = [];
  const fetchApiKey: NonNullable<LoginDeps["fetchApiKey"]> = async (site, username, password) => {
    calls.push({ site, username, password });
    if (reply !== "ok") throw reply;
    return { result: "success" as const, msg: "", api_key: KEY, email: "ada@example.test", user_id: 7 };
  };
  return { calls, fetchApiKey };
}

function piped(text: string) {
  const input = new PassThrough();
  input.end(text);
  return input;
}

describe("passwordLogin from a pipe", () => {
  it("reads site, email and password one per line and writes a 0600 zuliprc", async () => {
    const server = fakeServer();
    const err = capture();
    const path = join(dir, "sub", "zuliprc");
    const res = await passwordLogin({ configPath: path }, { input: piped(`chat.example.test\nada@example.test\n${PASSWORD}\n`), output: err.out }, server);
    expect(server.calls).toEqual([{ site: "https://chat.example.test/", username: "ada@example.test", password: PASSWORD }]);
    expect(res).toEqual({ email: "ada@example.test", site: "https://chat.example.test", path, userId: 7 });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readZuliprc(path)).toMatchObject({ email: "ada@example.test", key: KEY, site: "https://chat.example.test" });
    // Prompts are not printed for a pipe, and nothing secret ever is.
    expect(err.text()).toBe("");
  });

  it("asks only for what the command line left out", async () => {
    const server = fakeServer();
    const path = join(dir, "rc");
    await passwordLogin({ site: "http://127.0.0.1:9991", username: "ada", configPath: path }, { input: piped(`${PASSWORD}\n`), output: capture().out }, server);
    expect(server.calls[0]).toEqual({ site: "http://127.0.0.1:9991/", username: "ada", password: PASSWORD });
  });

  it("keeps spaces inside a password", async () => {
    const server = fakeServer();
    await passwordLogin({ site: "https://x.test", username: "a", configPath: join(dir, "rc") }, { input: piped("  pass word  \n"), output: capture().out }, server);
    expect(server.calls[0]?.password).toBe("  pass word  ");
  });

  it("records --ca-file as the zuliprc's cert_bundle", async () => {
    const ca = join(dir, "ca.pem");
    await writeFile(ca, "-----BEGIN CERTIFICATE-----\n");
    const path = join(dir, "rc");
    await passwordLogin({ site: "https://x.test", username: "a", configPath: path, caFile: ca }, { input: piped("pw\n"), output: capture().out }, fakeServer());
    expect((await readZuliprc(path)).certBundle).toBe(ca);
  });

  it("stops when the input ends before the password", async () => {
    await expect(
      passwordLogin({ configPath: join(dir, "rc") }, { input: piped("https://x.test\nada\n"), output: capture().out }, fakeServer()),
    ).rejects.toBeInstanceOf(LoginCancelled);
  });
});

describe("passwordLogin refusals", () => {
  it("does not overwrite an existing zuliprc without --force", async () => {
    const path = join(dir, "rc");
    await writeFile(path, "[api]\nemail=old@x\nkey=old\nsite=https://old\n", { mode: 0o600 });
    const opts = { site: "https://x.test", username: "a", configPath: path };
    await expect(passwordLogin(opts, { input: piped("pw\n"), output: capture().out }, fakeServer())).rejects.toBeInstanceOf(ConfigError);
    await passwordLogin({ ...opts, force: true }, { input: piped("pw\n"), output: capture().out }, fakeServer());
    expect((await readZuliprc(path)).key).toBe(KEY);
  });

  it("refuses plain http to a remote host unless allowed", async () => {
    const opts = { site: "http://chat.example.test", username: "a", configPath: join(dir, "rc") };
    await expect(passwordLogin(opts, { input: piped("pw\n"), output: capture().out }, fakeServer())).rejects.toBeInstanceOf(SiteError);
    await expect(passwordLogin({ ...opts, allowInsecureHttp: true }, { input: piped("pw\n"), output: capture().out }, fakeServer())).resolves.toBeDefined();
  });

  it("a refused password is an ApiError that names the user, never the password", async () => {
    const server = fakeServer(new ApiError(401, "AUTHENTICATION_FAILED", "Your username or password is incorrect", {}));
    const path = join(dir, "rc");
    const err = (await passwordLogin({ site: "https://x.test", username: "ada", configPath: path }, { input: piped(`${PASSWORD}\n`), output: capture().out }, server).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.code).toBe("AUTHENTICATION_FAILED");
    expect(err.message).toMatch(/login refused for ada/);
    expect(JSON.stringify({ m: err.message, d: err.data })).not.toContain(PASSWORD);
    await expect(stat(path)).rejects.toThrow();
  });
});

describe("passwordLogin on a terminal", () => {
  it("prompts, echoes the site and email, and hides the password", async () => {
    const input = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => input });
    const out = capture();
    const done = passwordLogin({ configPath: join(dir, "rc") }, { input, output: out.out }, fakeServer());
    for (const line of ["https://chat.example.test\r", "ada@example.test\r", `${PASSWORD}\r`]) {
      await new Promise((r) => setTimeout(r, 5));
      input.write(line);
    }
    await done;
    const shown = out.text();
    expect(shown).toContain("Server URL");
    expect(shown).toContain("Email");
    expect(shown).toContain("Password: ");
    expect(shown).toContain("ada@example.test");
    expect(shown).not.toContain(PASSWORD);
    expect(shown).not.toContain(PASSWORD.slice(0, 5));
  });
});

describe("termchat login output", () => {
  it("says where the zuliprc went, and prints neither the key nor the password", async () => {
    const stdout = capture();
    const stderr = capture();
    const path = join(dir, "rc");
    const code = await runLogin(
      { command: "login", site: "https://chat.example.test", username: "ada@example.test", config: path, allowInsecureHttp: false, force: false },
      { stdin: piped(`${PASSWORD}\n`), stdout: stdout.out, stderr: stderr.out },
      fakeServer(),
    );
    expect(code).toBe(0);
    expect(stdout.text()).toBe(`Logged in as ada@example.test on https://chat.example.test; wrote ${path} (mode 600).\n`);
    for (const text of [stdout.text(), stderr.text()]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(PASSWORD);
    }
    expect(await readFile(path, "utf8")).toContain(`key=${KEY}`);
  });
});
