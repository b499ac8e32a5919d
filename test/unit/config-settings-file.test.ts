import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSettings } from "../../src/config/settings.js";
import { JsonFile, settingsDir } from "../../src/config/settings-file.js";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe("where the settings file lives", () => {
  it("follows XDG_CONFIG_HOME, else ~/.config, on Linux", () => {
    expect(settingsDir({ XDG_CONFIG_HOME: "/x/conf" }, "linux", "/home/ada")).toBe("/x/conf/termchat");
    expect(settingsDir({}, "linux", "/home/ada")).toBe("/home/ada/.config/termchat");
    expect(settingsDir({ XDG_CONFIG_HOME: "" }, "linux", "/home/ada")).toBe("/home/ada/.config/termchat");
  });

  it("uses the platform's own place on macOS and Windows", () => {
    expect(settingsDir({}, "darwin", "/Users/ada")).toBe("/Users/ada/Library/Preferences/termchat");
    expect(settingsDir({ APPDATA: "/appdata" }, "win32", "/home/ada")).toBe(join("/appdata", "termchat", "Config"));
  });
});

describe("the settings file on disk", () => {
  it("a save keeps the keys it does not set, and leaves no temporary file", async () => {
    dir = await mkdtemp(join(tmpdir(), "termchat-settings-file-"));
    const path = join(dir, "nested", "config.json");
    new JsonFile(path).update({ theme: "light" });
    await writeFile(path, JSON.stringify({ theme: "light", somethingElse: 7 }));
    new JsonFile(path).update({ startView: "feed" });
    expect(JSON.parse(await readFile(path, "utf8"))).toEqual({ theme: "light", somethingElse: 7, startView: "feed" });
    expect(await readdir(join(dir, "nested"))).toEqual(["config.json"]);
  });

  it("no file and an empty file both read as nothing set", async () => {
    dir = await mkdtemp(join(tmpdir(), "termchat-settings-file-"));
    expect(new JsonFile(join(dir, "config.json")).read()).toBeUndefined();
    await writeFile(join(dir, "config.json"), "");
    expect((await openSettings({ cwd: dir })).problems).toEqual([]);
  });

  it("a file that is not JSON is reported, and the next save replaces it", async () => {
    dir = await mkdtemp(join(tmpdir(), "termchat-settings-file-"));
    await writeFile(join(dir, "config.json"), "{ not json");
    expect(() => new JsonFile(join(dir!, "config.json")).read()).toThrow(SyntaxError);
    new JsonFile(join(dir, "config.json")).update({ theme: "16" });
    const s = await openSettings({ cwd: dir });
    expect(s.problems).toEqual([]);
    expect(s.settings.theme).toBe("16");
  });

  it("a file holding something other than an object is reported by name", async () => {
    dir = await mkdtemp(join(tmpdir(), "termchat-settings-file-"));
    await writeFile(join(dir, "config.json"), "[1, 2]");
    expect((await openSettings({ cwd: dir })).problems).toEqual(["settings: expected an object; using the defaults"]);
  });
});
