/**
 * App settings (theme, key overrides, compose and notification preferences,
 * the first screen), kept by `conf` in the user's config
 * directory. The file is validated here: a bad value is reported by name and
 * replaced by its default, never a crash.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";

export const THEMES = ["dark", "light", "16"] as const;
export type ThemeName = (typeof THEMES)[number];
/** "auto": the light theme on a light terminal background, the dark one otherwise. */
export type ThemeSetting = ThemeName | "auto";

export interface Settings {
  /** A theme chosen by the user (T saves it) wins over the one the terminal's background suggests ("auto"). */
  theme: ThemeSetting;
  /** Glyphs the terminal can show: "auto" follows the locale's character set (UTF-8 or not); "ascii" or "unicode" force one. */
  glyphs: "auto" | "unicode" | "ascii";
  /** Emoji as pictures ("emoji") or as their `:name:` ("text", for fonts without colour emoji); "auto" asks the terminal. */
  emoji: "auto" | "emoji" | "text";
  /** Action name → keys that trigger it, replacing the defaults of that action. */
  keys: Record<string, string[]>;
  /** true: Enter sends and Alt-Enter/Ctrl-J add a line; false: Enter adds a line and Alt-Enter sends. */
  enterSends: boolean;
  notifications: { bell: boolean; desktop: boolean };
  /** The first screen: "home" follows the account's home view setting (Inbox or combined feed); "inbox" or "feed" choose one. */
  startView: "home" | "inbox" | "feed";
  /** Image previews in the message pane (uploaded images drawn in the terminal); false: links stay links. */
  imagePreviews: boolean;
  /** The mouse (wheel, clicks on rows, messages and links); off leaves the terminal's own text selection as it is (m toggles it). */
  mouse: boolean;
  /** Several accounts at once. */
  organizations: {
    /** The accounts (by name) connected at start; absent: every configured one. */
    connect?: string[];
    /** n and p go on to the next organization's unread conversations when the one on screen has none left. */
    followUnreads: boolean;
  };
}

/** A fresh copy of the defaults (a save changes the settings it is given). */
function defaults(): Settings {
  return {
    theme: "auto",
    glyphs: "auto",
    emoji: "auto",
    keys: {},
    enterSends: true,
    notifications: { bell: true, desktop: true },
    startView: "home",
    imagePreviews: true,
    mouse: false,
    organizations: { followUnreads: false },
  };
}

export const DEFAULT_SETTINGS: Settings = defaults();

/** Why a value is refused: where in the field (the path under it), and what was expected. */
class Refused {
  constructor(
    readonly path: Array<string | number>,
    readonly message: string,
  ) {}
}

const KEY_NAME = /^(?:[CMS]-)*(?:[\x21-\x7e]|[a-z]+)$/;

const oneOf =
  <const T extends string>(...options: T[]) =>
  (v: unknown): T => {
    if (typeof v === "string" && (options as string[]).includes(v)) return v as T;
    throw new Refused([], `expected one of ${options.map((o) => JSON.stringify(o)).join(", ")}`);
  };

/** A boolean, or (absent) its default. */
const flag = (fallback: boolean) => (v: unknown): boolean => {
  if (v === undefined) return fallback;
  if (typeof v === "boolean") return v;
  throw new Refused([], "expected true or false");
};

function record(v: unknown): Record<string, unknown> {
  if (v && typeof v === "object" && !Array.isArray(v)) return v as Record<string, unknown>;
  throw new Refused([], "expected an object");
}

/** A field's part, checked with the part's name put in front of any refusal's path. */
function at<T>(key: string | number, check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof Refused) throw new Refused([key, ...err.path], err.message);
    throw err;
  }
}

function keyName(v: unknown): string {
  if (typeof v !== "string") throw new Refused([], "expected a key name");
  if (!KEY_NAME.test(v)) throw new Refused([], "not a key name (examples: j, G, C-k, M-enter, pageup)");
  // Terminals send Alt and a character as Escape then the character, which is how termchat reads it.
  if (/^M-[\x21-\x7e]$/.test(v)) throw new Refused([], "Alt with a character arrives as Escape then the character; choose another key");
  return v;
}

/** Each field's check: its value from the file (undefined when absent), or a Refused. */
const FIELDS: { [K in keyof Settings]: (v: unknown) => Settings[K] } = {
  theme: (v) => (v === undefined ? "auto" : oneOf("auto", ...THEMES)(v)),
  glyphs: (v) => (v === undefined ? "auto" : oneOf("auto", "unicode", "ascii")(v)),
  emoji: (v) => (v === undefined ? "auto" : oneOf("auto", "emoji", "text")(v)),
  keys: (v) => {
    if (v === undefined) return {};
    const out: Record<string, string[]> = {};
    for (const [action, keys] of Object.entries(record(v))) {
      // JSON makes "__proto__" an own key; written to `out`, it would change the object's prototype.
      if (action === "__proto__") throw new Refused([action], "not an action");
      out[action] = at(action, () => {
        if (!Array.isArray(keys)) throw new Refused([], "expected a list of key names");
        return keys.map((k, i) => at(i, () => keyName(k)));
      });
    }
    return out;
  },
  enterSends: flag(true),
  notifications: (v) => {
    if (v === undefined) return { bell: true, desktop: true };
    const o = record(v);
    return { bell: at("bell", () => flag(true)(o.bell)), desktop: at("desktop", () => flag(true)(o.desktop)) };
  },
  startView: (v) => (v === undefined ? "home" : oneOf("home", "inbox", "feed")(v)),
  imagePreviews: flag(true),
  mouse: flag(false),
  organizations: (v) => {
    if (v === undefined) return { followUnreads: false };
    const o = record(v);
    const connect = at("connect", () => {
      if (o.connect === undefined) return undefined;
      if (!Array.isArray(o.connect)) throw new Refused([], "expected a list of account names");
      return o.connect.map((name, i) => at(i, () => {
        if (typeof name !== "string") throw new Refused([], "expected an account name");
        return name;
      }));
    });
    const followUnreads = at("followUnreads", () => flag(false)(o.followUnreads));
    return connect === undefined ? { followUnreads } : { connect, followUnreads };
  },
};

/**
 * Reads settings leniently: each invalid field falls back to its default, with a message saying
 * why. Checked by hand, not with a schema library: the settings are read before the first frame,
 * and building a schema there cost more than the checks themselves.
 */
export function parseSettings(raw: unknown): { settings: Settings; problems: string[] } {
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { settings: DEFAULT_SETTINGS, problems };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return { settings: DEFAULT_SETTINGS, problems: ["settings: expected an object; using the defaults"] };
  }
  const out = defaults() as unknown as Record<string, unknown>;
  for (const [key, check] of Object.entries(FIELDS) as Array<[keyof Settings, (v: unknown) => unknown]>) {
    try {
      out[key] = check((raw as Record<string, unknown>)[key]);
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      problems.push(`settings: ${[key, ...err.path].join(".")}: ${err.message}; using the default`);
    }
  }
  return { settings: out as unknown as Settings, problems };
}

export interface SettingsFile {
  settings: Settings;
  problems: string[];
  path: string;
  save(patch: Partial<Settings>): void;
}

/** Where conf keeps the settings file: the platform's config directory for termchat (or `cwd`), `config.json`. */
export function settingsPath(opts: { cwd?: string } = {}, env: NodeJS.ProcessEnv = process.env): string {
  if (opts.cwd) return join(opts.cwd, "config.json");
  const home = homedir();
  const dir =
    process.platform === "darwin"
      ? join(home, "Library", "Preferences", "termchat")
      : process.platform === "win32"
        ? join(env.APPDATA || join(home, "AppData", "Roaming"), "termchat", "Config")
        : join(env.XDG_CONFIG_HOME || join(home, ".config"), "termchat");
  return join(dir, "config.json");
}

/**
 * Reads the settings for the start without loading conf (its modules weigh on the first
 * frame): the same file, the same checks; saving loads conf when it is first asked for.
 */
export async function readSettings(opts: { cwd?: string } = {}): Promise<SettingsFile> {
  const path = settingsPath(opts);
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(path, "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") {
      const msg = (err as Error).message.split("\n")[0];
      return { settings: DEFAULT_SETTINGS, problems: [`settings file unreadable (${msg}); using the defaults`], path, save: () => undefined };
    }
  }
  const { settings, problems } = parseSettings(raw ?? {}); // a fresh object (a save changes it), never the defaults' own
  const file: SettingsFile = {
    settings,
    problems,
    path,
    save(patch) {
      Object.assign(file.settings, patch);
      // Kept for this run either way; a file that cannot be written (full disk, no permission)
      // must not end the session from a promise nobody awaits.
      void openSettings(opts)
        .then((f) => f.save(patch))
        .catch(() => undefined);
    },
  };
  return file;
}

/** Opens the settings file (conf: ~/.config/termchat/config.json, or `cwd` for tests). */
export async function openSettings(opts: { cwd?: string } = {}): Promise<SettingsFile> {
  const { default: Conf } = await import("conf");
  let conf: InstanceType<typeof Conf>;
  try {
    conf = new Conf({ projectName: "termchat", projectSuffix: "", cwd: opts.cwd, clearInvalidConfig: false });
  } catch (err) {
    const msg = (err as Error).message.split("\n")[0];
    return {
      settings: DEFAULT_SETTINGS,
      problems: [`settings file unreadable (${msg}); using the defaults`],
      path: opts.cwd ?? "",
      save: () => undefined,
    };
  }
  const { settings, problems } = parseSettings(conf.store);
  const file: SettingsFile = {
    settings,
    problems,
    path: conf.path,
    save(patch) {
      Object.assign(file.settings, patch);
      for (const [k, v] of Object.entries(patch)) conf.set(k, v);
    },
  };
  return file;
}
