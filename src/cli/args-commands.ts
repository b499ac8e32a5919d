/**
 * Parsing of the scriptable subcommands: login, send, status, messages, api.
 * Pure: no I/O; every mistake is a UsageError saying what is wrong.
 */
import type { AccountOptions } from "./account.js";
import { UsageError, strictParse } from "./args-base.js";

export interface LoginArgs {
  command: "login";
  config?: string;
  /** --account NAME: write ~/.config/termchat/accounts/NAME.zuliprc. */
  account?: string;
  site?: string;
  username?: string;
  allowInsecureHttp: boolean;
  caFile?: string;
  force: boolean;
}

export interface SendArgs {
  command: "send";
  account: AccountOptions;
  /** A channel name, or its ID. */
  channel?: string | number;
  topic?: string;
  /** Direct-message recipients (emails). */
  to?: string[];
  /** The text; undefined means "read it from stdin". */
  message?: string;
  /** Files to upload; their links follow the text. */
  attach?: string[];
}

export interface StatusArgs {
  command: "status";
  account: AccountOptions;
  text?: string;
  emoji?: string;
  clear: boolean;
  /** true: --away, false: --back, undefined: unchanged. */
  away?: boolean;
}

export interface MessagesArgs {
  command: "messages";
  account: AccountOptions;
  channel?: string | number;
  topic?: string;
  dm?: string[];
  search?: string;
  limit: number;
  json: boolean;
}

export type ApiMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface ApiArgs {
  command: "api";
  account: AccountOptions;
  method: ApiMethod;
  path: string;
  params: Record<string, unknown>;
}

export type SubcommandArgs = LoginArgs | SendArgs | StatusArgs | MessagesArgs | ApiArgs;
export const SUBCOMMANDS = ["login", "send", "status", "messages", "api"] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

export const accountOptions = {
  config: { type: "string" },
  account: { type: "string" },
  site: { type: "string" },
  email: { type: "string" },
  "api-key": { type: "string" },
  "allow-insecure-http": { type: "boolean" },
  "ca-file": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

type Values = Record<string, string | boolean | (string | boolean)[] | undefined>;

const str = (v: Values, k: string): string | undefined => (typeof v[k] === "string" ? (v[k] as string) : undefined);

function accountFrom(v: Values): AccountOptions {
  const site = str(v, "site");
  const email = str(v, "email");
  const apiKey = str(v, "api-key");
  const direct = [site, email, apiKey].filter((x) => x !== undefined).length;
  if (direct > 0 && direct < 3) throw new UsageError("--site, --email and --api-key go together: give all three, or use --config");
  if (direct === 3 && v.config !== undefined) throw new UsageError("give either --config or --site/--email/--api-key, not both");
  if (direct === 3 && v.account !== undefined) throw new UsageError("give either --account or --site/--email/--api-key, not both");
  return {
    config: str(v, "config"),
    account: str(v, "account"),
    site,
    email,
    apiKey,
    allowInsecureHttp: Boolean(v["allow-insecure-http"]),
    caFile: str(v, "ca-file"),
  };
}

function noPositionals(cmd: string, positionals: string[]): void {
  if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" for "termchat ${cmd}"`);
}

function nonEmpty(flag: string, v: string | undefined): string | undefined {
  if (v !== undefined && v.trim() === "") throw new UsageError(`${flag} must not be empty`);
  return v;
}

/** A channel given as a number is an ID; anything else is a name. */
function channelRef(v: string | undefined): string | number | undefined {
  const s = nonEmpty("--channel", v)?.replace(/^#/, "");
  return s !== undefined && /^\d+$/.test(s) ? Number(s) : s;
}

function emailList(flag: string, v: string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  const list = v.split(",").map((s) => s.trim()).filter(Boolean);
  if (!list.length) throw new UsageError(`${flag} needs at least one email`);
  for (const e of list) if (!e.includes("@")) throw new UsageError(`${flag}: "${e}" is not an email address`);
  return list;
}

type Help = { command: "help"; topic: Subcommand };

export function parseLogin(argv: string[]): LoginArgs | Help {
  const { values, positionals } = strictParse(argv, {
    config: { type: "string" },
    account: { type: "string" },
    site: { type: "string" },
    email: { type: "string" },
    username: { type: "string" },
    "allow-insecure-http": { type: "boolean" },
    "ca-file": { type: "string" },
    force: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  });
  if (values.help) return { command: "help", topic: "login" };
  noPositionals("login", positionals);
  if (values.email !== undefined && values.username !== undefined) throw new UsageError("give --email or --username, not both");
  if (values.account !== undefined && values.config !== undefined) throw new UsageError("give --account NAME or --config PATH, not both");
  if (values.account !== undefined && !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(values.account)) {
    throw new UsageError(`--account: "${values.account}" is not a usable name (letters, digits, ".", "_" and "-")`);
  }
  return {
    command: "login",
    config: values.config,
    account: values.account,
    site: nonEmpty("--site", values.site),
    username: nonEmpty("--email", values.email ?? values.username),
    allowInsecureHttp: Boolean(values["allow-insecure-http"]),
    caFile: values["ca-file"],
    force: Boolean(values.force),
  };
}

export function parseSend(argv: string[]): SendArgs | Help {
  const { values, positionals } = strictParse(argv, {
    ...accountOptions,
    channel: { type: "string", short: "c" },
    topic: { type: "string", short: "t" },
    to: { type: "string" },
    message: { type: "string", short: "m" },
    attach: { type: "string", multiple: true },
  });
  if (values.help) return { command: "help", topic: "send" };
  // `--attach a.png b.pdf`: the words after the option are more files.
  const attach = [...(values.attach ?? []), ...(values.attach?.length ? positionals : [])];
  if (!values.attach?.length) noPositionals("send", positionals);
  if (attach.some((f) => f.trim() === "")) throw new UsageError("--attach needs a file path");
  const account = accountFrom(values);
  const channel = channelRef(values.channel);
  const to = emailList("--to", values.to);
  if (channel !== undefined && to) throw new UsageError("give --channel (with --topic) or --to, not both");
  if (channel === undefined && !to) throw new UsageError("say where to send: --channel NAME --topic TOPIC, or --to EMAIL[,EMAIL…]");
  if (channel !== undefined && values.topic === undefined) throw new UsageError("--channel needs --topic");
  if (to && values.topic !== undefined) throw new UsageError("--topic applies to --channel, not to direct messages");
  if (values.message !== undefined && values.message.trim() === "") throw new UsageError("--message must not be empty");
  return { command: "send", account, channel, topic: values.topic, to, message: values.message, ...(attach.length ? { attach } : {}) };
}

export function parseStatus(argv: string[]): StatusArgs | Help {
  const { values, positionals } = strictParse(argv, {
    ...accountOptions,
    text: { type: "string" },
    emoji: { type: "string" },
    clear: { type: "boolean" },
    away: { type: "boolean" },
    back: { type: "boolean" },
  });
  if (values.help) return { command: "help", topic: "status" };
  noPositionals("status", positionals);
  if (values.clear && (values.text !== undefined || values.emoji !== undefined)) {
    throw new UsageError("--clear removes the text and emoji: leave out --text/--emoji");
  }
  if (values.away && values.back) throw new UsageError("give --away or --back, not both");
  const text = values.text;
  if (text !== undefined && [...text].length > 60) throw new UsageError("--text is too long (at most 60 characters)");
  const emoji = values.emoji?.replace(/^:|:$/g, "");
  if (emoji !== undefined && !/^[\p{L}\p{N}_+-]+$/u.test(emoji)) throw new UsageError(`--emoji expects an emoji name like "coffee", not "${values.emoji}"`);
  return {
    command: "status",
    account: accountFrom(values),
    text,
    emoji,
    clear: Boolean(values.clear),
    away: values.away ? true : values.back ? false : undefined,
  };
}

export function parseMessages(argv: string[]): MessagesArgs | Help {
  const { values, positionals } = strictParse(argv, {
    ...accountOptions,
    channel: { type: "string", short: "c" },
    topic: { type: "string", short: "t" },
    dm: { type: "string" },
    search: { type: "string", short: "s" },
    limit: { type: "string", short: "n" },
    json: { type: "boolean" },
  });
  if (values.help) return { command: "help", topic: "messages" };
  noPositionals("messages", positionals);
  const channel = channelRef(values.channel);
  const dm = emailList("--dm", values.dm);
  if (values.topic !== undefined && channel === undefined) throw new UsageError("--topic needs --channel");
  if (dm && channel !== undefined) throw new UsageError("give --channel or --dm, not both");
  let limit = 20;
  if (values.limit !== undefined) {
    if (!/^\d+$/.test(values.limit) || Number(values.limit) < 1 || Number(values.limit) > 5000) {
      throw new UsageError(`--limit expects a number from 1 to 5000, not "${values.limit}"`);
    }
    limit = Number(values.limit);
  }
  return {
    command: "messages",
    account: accountFrom(values),
    channel,
    topic: values.topic,
    dm,
    search: nonEmpty("--search", values.search),
    limit,
    json: Boolean(values.json),
  };
}

const METHODS: readonly ApiMethod[] = ["GET", "POST", "PATCH", "PUT", "DELETE"];

/** `key=value`: a value that parses as JSON is sent as that value, anything else as a string. */
export function parseParam(arg: string): [string, unknown] {
  const eq = arg.indexOf("=");
  if (eq <= 0) throw new UsageError(`expected key=value, not "${arg}"`);
  const key = arg.slice(0, eq);
  const raw = arg.slice(eq + 1);
  try {
    return [key, JSON.parse(raw)];
  } catch {
    return [key, raw];
  }
}

export function parseApi(argv: string[]): ApiArgs | Help {
  const { values, positionals } = strictParse(argv, accountOptions);
  if (values.help) return { command: "help", topic: "api" };
  const [method, path, ...rest] = positionals;
  if (!method || !path) throw new UsageError("usage: termchat api METHOD PATH [key=value …], e.g. termchat api GET users/me");
  const m = method.toUpperCase() as ApiMethod;
  if (!METHODS.includes(m)) throw new UsageError(`unknown method "${method}" (use ${METHODS.join(", ")})`);
  const clean = path.replace(/^\/+/, "").replace(/^api\/v1\//, "");
  if (!clean || /^[a-z]+:/i.test(clean) || /%2e/i.test(clean) || clean.split(/[/?#]/).includes("..")) {
    throw new UsageError(`PATH is relative to /api/v1, e.g. "users/me", not "${path}"`);
  }
  if (/[?#]/.test(clean)) throw new UsageError("give parameters as key=value arguments, not in the PATH");
  const params: Record<string, unknown> = {};
  for (const arg of rest) {
    const [k, v] = parseParam(arg);
    if (k in params) throw new UsageError(`parameter "${k}" given twice`);
    params[k] = v;
  }
  return { command: "api", account: accountFrom(values), method: m, path: clean, params };
}

export function parseSubcommand(cmd: Subcommand, argv: string[]): SubcommandArgs | Help {
  switch (cmd) {
    case "login":
      return parseLogin(argv);
    case "send":
      return parseSend(argv);
    case "status":
      return parseStatus(argv);
    case "messages":
      return parseMessages(argv);
    case "api":
      return parseApi(argv);
  }
}
