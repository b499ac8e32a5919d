/**
 * Several accounts: sections [api] and [api:NAME] in one zuliprc, a directory
 * of NAME.zuliprc files, --account NAME, the choice at start, errors that
 * list the known names, and `termchat login --account NAME` (0600).
 */
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveAccount, type AccountChoice } from "../../src/cli/account.js";
import { parseCliArgs } from "../../src/cli/args.js";
import { runLogin } from "../../src/cli/commands/login.js";
import {
  accountFilePath,
  accountsInZuliprc,
  defaultAccountPaths,
  discoverAccounts,
  selectAccount,
  type AccountPaths,
} from "../../src/config/accounts.js";
import { ConfigError, readZuliprc } from "../../src/config/zuliprc.js";
import { withServer } from "../fixtures/server.js";

let dir: string;
let paths: AccountPaths;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "termchat-accounts-"));
  paths = { zuliprc: join(dir, ".zuliprc"), accountsDir: join(dir, "config", "termchat", "accounts") };
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const rc = (email: string, site = "https://chat.example.test", key = "k") => `email=${email}\nkey=${key}\nsite=${site}\n`;

async function put(path: string, text: string, mode = 0o600) {
  await mkdir(join(path, ".."), { recursive: true });
  await writeFile(path, text, { mode });
  await chmod(path, mode);
}

describe("accounts in one zuliprc", () => {
  it("[api] is the file's account, [api:NAME] another; broken sections are reported, other sections ignored", () => {
    const text = `[api]\n${rc("maya@x.test")}\n[api:work]\n${rc("maya@work.test")}\n[api:half]\nemail=a@b.test\n[api:bad name]\n${rc("z@x.test")}\n[other]\nfoo=bar\n`;
    const d = accountsInZuliprc(text, "/home/u/.zuliprc");
    expect(d.accounts.map((a) => [a.name, a.account.email])).toEqual([
      ["default", "maya@x.test"],
      ["work", "maya@work.test"],
    ]);
    expect(d.problems).toEqual([
      "/home/u/.zuliprc [api:half] is missing key, site",
      '/home/u/.zuliprc [api:bad name]: "bad name" is not a usable account name',
    ]);
    expect(accountsInZuliprc(`[api]\n${rc("ben@x.test")}`, "/a/ben.zuliprc").accounts[0]?.name).toBe("ben");
  });
});

describe("discovering and selecting accounts", () => {
  it("reads ~/.zuliprc and the accounts directory; unsafe files and duplicates are problems, not crashes", async () => {
    await put(paths.zuliprc, `[api]\n${rc("maya@x.test")}[api:work]\n${rc("maya@work.test")}`);
    await put(join(paths.accountsDir, "ben.zuliprc"), `[api]\n${rc("ben@x.test")}`);
    await put(join(paths.accountsDir, "work.zuliprc"), `[api]\n${rc("dup@x.test")}`);
    await put(join(paths.accountsDir, "open.zuliprc"), `[api]\n${rc("open@x.test")}`, 0o644);
    await put(join(paths.accountsDir, "notes.txt"), "not an account");
    const d = await discoverAccounts({ paths });
    expect(d.accounts.map((a) => a.name)).toEqual(["default", "work", "ben"]);
    expect(d.accounts.find((a) => a.name === "work")?.account.email).toBe("maya@work.test");
    expect(d.problems.join("\n")).toMatch(/work\.zuliprc \[api\]: the account "work" is already defined in .*\.zuliprc \[api:work\]; ignored/);
    expect(d.problems.join("\n")).toMatch(/open\.zuliprc holds an API key but is readable by other users \(mode 644\)/);
  });

  it("--account picks by name; an unknown name lists the known ones", async () => {
    await put(join(paths.accountsDir, "ben.zuliprc"), `[api]\n${rc("ben@x.test")}`);
    await put(join(paths.accountsDir, "maya.zuliprc"), `[api]\n${rc("maya@x.test")}`);
    const d = await discoverAccounts({ paths });
    const one = selectAccount(d, "maya", "x");
    expect(one.kind === "one" && one.account.account.email).toBe("maya@x.test");
    expect(() => selectAccount(d, "omar", "x")).toThrow('no account named "omar"; known accounts: ben, maya');
    expect(selectAccount(d, undefined, "x").kind).toBe("choose");
  });

  it("with nothing configured, says how to get an account; a lone unsafe file says why it was refused", async () => {
    await expect(resolveAccount({ allowInsecureHttp: false }, { paths })).rejects.toThrow(/no account configured .*Run "termchat login"/);
    await expect(resolveAccount({ allowInsecureHttp: false, account: "ben" }, { paths })).rejects.toThrow('no account named "ben"; no accounts are configured');
    await put(paths.zuliprc, `[api]\n${rc("maya@x.test")}`, 0o644);
    await expect(resolveAccount({ allowInsecureHttp: false }, { paths })).rejects.toThrow(/readable by other users .*chmod 600/);
  });
});

describe("resolveAccount", () => {
  beforeEach(async () => {
    await put(paths.zuliprc, `[api]\n${rc("maya@x.test", "https://one.test", "k1")}cert_bundle=/etc/ca.pem\n`);
    await put(join(paths.accountsDir, "ben.zuliprc"), `[api]\n${rc("ben@x.test", "https://two.test", "k2")}insecure=true\n`);
  });

  it("uses the named account (its settings included)", async () => {
    const a = await resolveAccount({ allowInsecureHttp: false, account: "ben" }, { paths });
    expect(a).toEqual({ site: "https://two.test", email: "ben@x.test", apiKey: "k2", allowInsecureHttp: true, insecure: true, caFile: undefined });
    const d = await resolveAccount({ allowInsecureHttp: false, account: "default" }, { paths });
    expect(d).toMatchObject({ email: "maya@x.test", caFile: "/etc/ca.pem" });
  });

  it("several and none named: asks when it can, else an error listing the names", async () => {
    await expect(resolveAccount({ allowInsecureHttp: false }, { paths })).rejects.toThrow(
      "several accounts are configured: default, ben. Pick one with --account NAME.",
    );
    let offered: AccountChoice[] = [];
    const a = await resolveAccount(
      { allowInsecureHttp: false },
      {
        paths,
        choose: async (c) => {
          offered = c;
          return "ben";
        },
      },
    );
    expect(offered).toEqual([
      { name: "default", email: "maya@x.test", site: "https://one.test" },
      { name: "ben", email: "ben@x.test", site: "https://two.test" },
    ]);
    expect(a.email).toBe("ben@x.test");
    await expect(resolveAccount({ allowInsecureHttp: false }, { paths, choose: async () => undefined })).rejects.toThrow(ConfigError);
  });

  it("--config limits the choice to that file's sections", async () => {
    const file = join(dir, "team.rc");
    await put(file, `[api:alpha]\n${rc("a@x.test")}[api:beta]\n${rc("b@x.test")}`);
    await expect(resolveAccount({ allowInsecureHttp: false, config: file }, { paths })).rejects.toThrow("several accounts are configured: alpha, beta");
    expect((await resolveAccount({ allowInsecureHttp: false, config: file, account: "beta" }, { paths })).email).toBe("b@x.test");
    // The classic single-section file still just works.
    await put(file, `[api]\n${rc("solo@x.test")}`);
    expect((await resolveAccount({ allowInsecureHttp: false, config: file }, { paths })).email).toBe("solo@x.test");
  });
});

describe("the command line", () => {
  it("parses --account for the client and the subcommands, and refuses mixing it with --site or --demo", () => {
    expect(parseCliArgs(["--account", "work"], {})).toMatchObject({ command: "client", account: "work" });
    expect(parseCliArgs(["send", "--account", "work", "--to", "a@b.test", "-m", "hi"], {})).toMatchObject({ account: { account: "work" } });
    expect(() => parseCliArgs(["--account", "w", "--demo"], {})).toThrow(/--account picks a configured account/);
    expect(() => parseCliArgs(["status", "--account", "w", "--site", "https://x", "--email", "a@b", "--api-key", "k"], {})).toThrow(/--account or --site/);
    expect(parseCliArgs(["login", "--account", "work"], {})).toMatchObject({ command: "login", account: "work" });
    expect(() => parseCliArgs(["login", "--account", "../evil"], {})).toThrow(/not a usable name/);
    expect(() => parseCliArgs(["login", "--account", "a", "--config", "/tmp/x"], {})).toThrow(/--account NAME or --config PATH/);
  });

  it("the accounts directory follows XDG_CONFIG_HOME", () => {
    expect(defaultAccountPaths({ XDG_CONFIG_HOME: "/xdg" }, "/home/u")).toEqual({ zuliprc: "/home/u/.zuliprc", accountsDir: "/xdg/termchat/accounts" });
    expect(defaultAccountPaths({}, "/home/u").accountsDir).toBe("/home/u/.config/termchat/accounts");
    expect(() => accountFilePath("a/b")).toThrow(/not a usable account name/);
  });
});

describe("termchat login --account NAME", () => {
  const saved = process.env.XDG_CONFIG_HOME;
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
  });

  it("logs in against the reference server and writes accounts/NAME.zuliprc with mode 600, found afterwards by name", async () => {
    process.env.XDG_CONFIG_HOME = join(dir, "config");
    const server = await withServer();
    try {
      const out = new PassThrough();
      let printed = "";
      out.on("data", (c: Buffer) => (printed += c.toString()));
      const stdin = new PassThrough();
      stdin.end("termchat-demo\n");
      const args = parseCliArgs(["login", "--account", "ben", "--site", server.server.url, "--email", "ben@lighthouse.test"], {});
      if (args.command !== "login") throw new Error("not a login");
      expect(await runLogin(args, { stdin, stdout: out, stderr: new PassThrough() })).toBe(0);
      const path = join(paths.accountsDir, "ben.zuliprc");
      expect(printed).toContain(`wrote ${path} (mode 600)`);
      expect((await stat(path)).mode & 0o777).toBe(0o600);
      expect((await readZuliprc(path)).email).toBe("ben@lighthouse.test");
      expect(await readFile(path, "utf8")).toContain(`site=${server.server.url}`);
      const a = await resolveAccount({ allowInsecureHttp: false, account: "ben" }, { paths });
      expect(a.email).toBe("ben@lighthouse.test");
    } finally {
      await server.close();
    }
  });
});
