/**
 * App settings (theme, key overrides, compose and notification preferences,
 * the first screen), kept by `conf` in the user's config
 * directory. The file is validated here: a bad value is reported by name and
 * replaced by its default, never a crash.
 */
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import * as z from "zod";

export const THEMES = ["dark", "light", "16"] as const;
export type ThemeName = (typeof THEMES)[number];
/** "auto": the light theme on a light terminal background, the dark one otherwise. */
export type ThemeSetting = ThemeName | "auto";

const keyName = z
  .string()
  .regex(/^(?:[CMS]-)*(?:[\x21-\x7e]|[a-z]+)$/, "not a key name (examples: j, G, C-k, M-enter, pageup)")
  // Terminals send Alt and a character as Escape then the character, which is how termchat reads it.
  .refine((k) => !/^M-[\x21-\x7e]$/.test(k), "Alt with a character arrives as Escape then the character; choose another key");

const shape = {
  /** A theme chosen by the user (T saves it) wins over the one the terminal's background suggests ("auto"). */
  theme: z.enum(["auto", ...THEMES]).default("auto"),
  /** Glyphs the terminal can show: "auto" follows the locale's character set (UTF-8 or not); "ascii" or "unicode" force one. */
  glyphs: z.enum(["auto", "unicode", "ascii"]).default("auto"),
  /** Emoji as pictures ("emoji") or as their `:name:` ("text", for fonts without colour emoji); "auto" asks the terminal. */
  emoji: z.enum(["auto", "emoji", "text"]).default("auto"),
  /** Action name → keys that trigger it, replacing the defaults of that action. */
  keys: z.record(z.string(), z.array(keyName)).default({}),
  /** true: Enter sends and Alt-Enter/Ctrl-J add a line; false: Enter adds a line and Alt-Enter sends. */
  enterSends: z.boolean().default(true),
  notifications: z
    .object({
      bell: z.boolean().default(true),
      desktop: z.boolean().default(true),
    })
    .default({ bell: true, desktop: true }),
  /** The first screen: "home" follows the account's home view setting (Inbox or combined feed); "inbox" or "feed" choose one. */
  startView: z.enum(["home", "inbox", "feed"]).default("home"),
  /** Image previews in the message pane (uploaded images drawn in the terminal); false: links stay links. */
  imagePreviews: z.boolean().default(true),
  /** The mouse (wheel, clicks on rows, messages and links); off leaves the terminal's own text selection as it is (m toggles it). */
  mouse: z.boolean().default(false),
  /** Several accounts at once. */
  organizations: z
    .object({
      /** The accounts (by name) connected at start; absent: every configured one. */
      connect: z.array(z.string()).optional(),
      /** n and p go on to the next organization's unread conversations when the one on screen has none left. */
      followUnreads: z.boolean().default(false),
    })
    .default({ followUnreads: false }),
};

export const settingsSchema = z.object(shape);
export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = settingsSchema.parse({});

/** Reads settings leniently: each invalid field falls back to its default, with a message saying why. */
export function parseSettings(raw: unknown): { settings: Settings; problems: string[] } {
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { settings: DEFAULT_SETTINGS, problems };
  if (typeof raw !== "object" || Array.isArray(raw)) {
    return { settings: DEFAULT_SETTINGS, problems: ["settings: expected an object; using the defaults"] };
  }
  const out: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(shape) as Array<[keyof Settings, z.ZodType]>) {
    const value = (raw as Record<string, unknown>)[key];
    const parsed = schema.safeParse(value);
    if (parsed.success) out[key] = parsed.data;
    else {
      const issue = parsed.error.issues[0];
      const where = [key, ...(issue?.path ?? [])].join(".");
      problems.push(`settings: ${where}: ${issue?.message ?? "invalid"}; using the default`);
      out[key] = schema.parse(undefined);
    }
  }
  return { settings: out as Settings, problems };
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
