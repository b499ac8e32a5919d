import { mkdtemp, readFile, stat, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, parseZuliprc, readZuliprc, writeZuliprc } from "../../src/config/zuliprc.js";

const account = { email: "ada@example.test", key: "abcdefghijklmnopqrstuvwxyz123456", site: "https://chat.example.test" };

describe("zuliprc", () => {
  it("reads the [api] section", () => {
    expect(parseZuliprc("# mine\n[api]\nemail = ada@example.test\nkey=k\nsite=https://x.test\n")).toMatchObject({
      email: "ada@example.test",
      key: "k",
      site: "https://x.test",
    });
  });

  it("says which fields are missing", () => {
    expect(() => parseZuliprc("[api]\nemail=a@b\n", "rc")).toThrow("rc: [api] is missing key, site");
    expect(() => parseZuliprc("[other]\nx=1\n", "rc")).toThrow(/no \[api\] section/);
    expect(() => parseZuliprc("garbage line\n", "rc")).toThrow(/line 1/);
  });

  it("writes with mode 0600 and reads back", async () => {
    const dir = await mkdtemp(join(tmpdir(), "termchat-"));
    const path = join(dir, "sub", "zuliprc");
    await writeZuliprc(path, account);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(await readZuliprc(path)).toMatchObject(account);
  });

  it("refuses a file other users can read, and says how to fix it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "termchat-"));
    const path = join(dir, "zuliprc");
    await writeFile(path, "[api]\nemail=a@b\nkey=k\nsite=https://x\n");
    await chmod(path, 0o644);
    const err = await readZuliprc(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toContain(`chmod 600 ${path}`);
    expect((err as Error).message).not.toContain("k\n");
  });

  it("reports a missing file plainly", async () => {
    await expect(readZuliprc("/nonexistent/zuliprc")).rejects.toThrow("/nonexistent/zuliprc: no such file");
    expect(await readFile(new URL(import.meta.url), "utf8")).toBeTruthy();
  });
});
