import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, openSettings, parseSettings, readSettings, settingsPath } from "../../src/config/settings.js";

describe("settings", () => {
  it("fills defaults for a missing file", () => {
    expect(parseSettings(undefined)).toEqual({ settings: DEFAULT_SETTINGS, problems: [] });
    // The theme follows the terminal's background, the glyphs its locale, emoji what it can show, until the user says otherwise.
    expect(DEFAULT_SETTINGS).toMatchObject({ theme: "auto", glyphs: "auto", emoji: "auto", enterSends: true, notifications: { bell: true, desktop: true } });
  });

  it("names each invalid value and keeps the valid ones", () => {
    const { settings, problems } = parseSettings({ theme: "neon", enterSends: false, keys: { reply: ["r", "not a key"] }, glyphs: "ascii", emoji: "pictures" });
    expect(settings.theme).toBe("auto");
    expect(settings.glyphs).toBe("ascii");
    expect(settings.emoji).toBe("auto");
    expect(settings.enterSends).toBe(false);
    expect(settings.keys).toEqual({});
    expect(problems).toEqual([
      expect.stringMatching(/^settings: theme: .*; using the default$/),
      expect.stringMatching(/^settings: emoji: .*; using the default$/),
      expect.stringMatching(/^settings: keys\.reply\.1: not a key name/),
    ]);
  });

  it("checks nested settings field by field: a wrong part names its path, the rest of the file still counts", () => {
    const { settings, problems } = parseSettings({
      notifications: { bell: "yes", desktop: false },
      organizations: { connect: ["work", 7], followUnreads: true },
      mouse: true,
      startView: "inbox",
      keys: { reply: "r" },
      someday: "a setting of a newer release",
    });
    expect(settings.notifications).toEqual({ bell: true, desktop: true });
    expect(settings.organizations).toEqual({ followUnreads: false });
    expect(settings.keys).toEqual({});
    expect(settings).toMatchObject({ mouse: true, startView: "inbox", theme: "auto" });
    expect(problems).toEqual([
      "settings: keys.reply: expected a list of key names; using the default",
      "settings: notifications.bell: expected true or false; using the default",
      "settings: organizations.connect.1: expected an account name; using the default",
    ]);
    const good = parseSettings({ notifications: { bell: false }, organizations: { connect: ["work"] }, keys: { reply: ["R", "C-r"] } });
    expect(good.problems).toEqual([]);
    expect(good.settings).toMatchObject({ notifications: { bell: false, desktop: true }, organizations: { connect: ["work"], followUnreads: false }, keys: { reply: ["R", "C-r"] } });
    const odd = parseSettings(JSON.parse('{"keys": {"__proto__": ["x"]}}'));
    expect(odd.problems).toEqual(["settings: keys.__proto__: not an action; using the default"]);
    expect(Object.getPrototypeOf(odd.settings.keys)).toBe(Object.prototype);
    // Each read is its own copy: changing one (a save does) leaves the defaults as they are.
    const fresh = parseSettings({});
    fresh.settings.notifications.bell = false;
    expect(DEFAULT_SETTINGS.notifications.bell).toBe(true);
  });

  it("refuses Alt with a character as a key, saying why (it arrives as Escape, then the character)", () => {
    const { settings, problems } = parseSettings({ keys: { quote: ["M-q"], send: ["M-enter"] } });
    expect(settings.keys).toEqual({});
    expect(problems).toEqual([expect.stringMatching(/^settings: keys\.quote\.0: Alt with a character arrives as Escape then the character/)]);
    expect(parseSettings({ keys: { send: ["M-enter"] } }).problems).toEqual([]);
  });

  it("saves and reads back through the settings file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "termchat-settings-"));
    const first = await openSettings({ cwd: dir });
    first.save({ theme: "light", startView: "feed" });
    const again = await openSettings({ cwd: dir });
    expect(again.settings.theme).toBe("light");
    expect(again.settings.startView).toBe("feed");
  });

  it("the start reads the file conf keeps, at the path conf uses, without conf", async () => {
    const dir = await mkdtemp(join(tmpdir(), "termchat-settings-"));
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = dir;
    try {
      const viaConf = await openSettings();
      expect(settingsPath()).toBe(viaConf.path);
      viaConf.save({ theme: "16", keys: { reply: ["R"] } });
      const read = await readSettings();
      expect(read.path).toBe(viaConf.path);
      expect(read.settings).toMatchObject({ theme: "16", keys: { reply: ["R"] } });
      expect(read.problems).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
    expect(settingsPath({ cwd: dir })).toBe(join(dir, "config.json"));
  });

  it("the start's read: no file is the defaults; a damaged file says so; a save goes through conf", async () => {
    const dir = await mkdtemp(join(tmpdir(), "termchat-settings-"));
    expect(await readSettings({ cwd: dir })).toMatchObject({ settings: DEFAULT_SETTINGS, problems: [] });
    const fresh = await readSettings({ cwd: dir });
    fresh.save({ startView: "inbox" });
    expect(fresh.settings.startView).toBe("inbox");
    expect(DEFAULT_SETTINGS.startView).toBe("home");
    await expect.poll(async () => (await openSettings({ cwd: dir })).settings.startView, { timeout: 15_000 }).toBe("inbox");
    await writeFile(join(dir, "config.json"), "{ not json");
    const bad = await readSettings({ cwd: dir });
    expect(bad.settings).toEqual(DEFAULT_SETTINGS);
    expect(bad.problems).toEqual([expect.stringMatching(/^settings file unreadable \(.+\); using the defaults$/)]);
  });

  it("reports a file that is not JSON instead of failing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "termchat-settings-"));
    await writeFile(join(dir, "config.json"), "{ not json");
    const s = await openSettings({ cwd: dir });
    expect(s.settings).toEqual(DEFAULT_SETTINGS);
    expect(s.problems[0]).toMatch(/settings file unreadable/);
  });
});
