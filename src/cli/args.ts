/** Command-line parsing: strict, with messages that say what is wrong. */
import { UsageError, strictParse } from "./args-base.js";
import { parseCacheArgs, type CacheArgs } from "./cache-command.js";
import { SUBCOMMANDS, accountOptions, parseSubcommand, type Subcommand, type SubcommandArgs } from "./args-commands.js";

export { UsageError } from "./args-base.js";
export type { ApiArgs, LoginArgs, MessagesArgs, SendArgs, StatusArgs, SubcommandArgs } from "./args-commands.js";

export const HELP = `termchat — a keyboard-driven terminal client for team chat

Usage:
  termchat [options]                 open the client
  termchat --demo                    try it on a built-in demo organization (no account needed;
                                     it lives in memory and is gone at exit: to keep one, run
                                     termchat server --zuliprc-dir DIR and use a zuliprc from DIR)
  termchat server [--port N] [--data demo|large] [--zuliprc-dir DIR]
                                     run the reference server on 127.0.0.1 with the
                                     demo organization (default) or the large one

Scriptable commands (each takes the account options below; "termchat CMD --help" for details):
  termchat login                     log in with a password and write a zuliprc (mode 600)
  termchat send --channel C --topic T [--message TEXT]
  termchat send --to EMAIL[,EMAIL…] [--message TEXT]
                                     send a message (the text from stdin without --message);
                                     prints the new message's ID
  termchat status [--text T] [--emoji NAME] [--clear] [--away|--back]
                                     set your status, or show it when given no option
  termchat messages [--channel C [--topic T] | --dm EMAIL[,…]] [--search Q] [--limit N] [--json]
                                     print recent messages
  termchat api METHOD PATH [key=value …]
                                     call any endpoint (PATH relative to /api/v1); JSON out
  termchat cache clear [--account NAME]
                                     remove the local cache (all accounts, or one)
Exit status: 0 ok, 1 refused by the server or network failure, 2 usage or configuration error.

Options:
  --account NAME          the account to use: [api:NAME] in ~/.zuliprc or
                          ~/.config/termchat/accounts/NAME.zuliprc (with several
                          accounts and no --account, termchat asks at start)
  --config PATH           zuliprc to use (default: ~/.zuliprc)
  --site URL              server URL (with --email and --api-key instead of a zuliprc)
  --email EMAIL           account email
  --api-key KEY           API key (prefer a zuliprc: command lines are visible to other users)
  --spectator             with --site: read the organization's web-public channels without an
                          account (read-only; nothing is asked or stored). A zuliprc section with
                          site=URL and spectator=true is such an entry in the account list
  --allow-insecure-http   allow plain http:// to a non-loopback server
  --ca-file PATH          PEM bundle of extra certificate authorities to trust
  --demo                  start the demo server in-process and log in as its owner
  --port N                port for the demo or standalone server (default: a free one)
  --no-color              no colours (also when NO_COLOR is set)
  --no-cache              neither read nor write the local cache of the last run
                          ("termchat cache clear [--account NAME]" removes it)
  -h, --help              show this help
  -v, --version           show the version
`;

export interface ClientArgs {
  command: "client";
  config?: string;
  /** --account NAME: one of several configured accounts. */
  account?: string;
  site?: string;
  email?: string;
  apiKey?: string;
  allowInsecureHttp: boolean;
  caFile?: string;
  demo: boolean;
  port?: number;
  color: boolean;
  /** --no-cache: start without the local cache, and leave it alone. */
  noCache: boolean;
  /** --spectator (with --site): no account, the organization's web-public channels read-only. */
  spectator: boolean;
}

export const SERVER_DATA_SETS = ["demo", "large"] as const;
export type ServerDataSet = (typeof SERVER_DATA_SETS)[number];

export interface ServerArgs {
  command: "server";
  port: number;
  /** The seeded organization: `demo` (small, lively) or `large` (for benchmarks). */
  data: ServerDataSet;
  zuliprcDir?: string;
}

export type Args =
  | ClientArgs
  | ServerArgs
  | SubcommandArgs
  | CacheArgs
  | { command: "help"; topic?: Subcommand }
  | { command: "version" };

function parsePort(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) > 65535) throw new UsageError(`--port expects a number from 0 to 65535, not "${v}"`);
  return Number(v);
}

function parseDataSet(v: string | undefined): ServerDataSet {
  if (v === undefined) return "demo";
  if (!(SERVER_DATA_SETS as readonly string[]).includes(v)) {
    throw new UsageError(`--data expects ${SERVER_DATA_SETS.join(" or ")}, not "${v}"`);
  }
  return v as ServerDataSet;
}

export function parseCliArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): Args {
  const first = argv[0];
  if (first !== undefined && (SUBCOMMANDS as readonly string[]).includes(first)) {
    return parseSubcommand(first as Subcommand, argv.slice(1));
  }
  if (argv[0] === "cache") return parseCacheArgs(argv.slice(1));
  if (argv[0] === "server") {
    const { values, positionals } = strictParse(argv.slice(1), {
      port: { type: "string" },
      data: { type: "string" },
      "zuliprc-dir": { type: "string" },
      help: { type: "boolean", short: "h" },
    });
    if (values.help) return { command: "help" };
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}" for "termchat server"`);
    return {
      command: "server",
      port: parsePort(values.port as string | undefined) ?? 9991,
      data: parseDataSet(values.data as string | undefined),
      zuliprcDir: values["zuliprc-dir"] as string | undefined,
    };
  }
  const { values, positionals } = strictParse(argv, {
    ...accountOptions,
    demo: { type: "boolean" },
    port: { type: "string" },
    "no-color": { type: "boolean" },
    "no-cache": { type: "boolean" },
    spectator: { type: "boolean" },
    version: { type: "boolean", short: "v" },
  });
  if (values.help) return { command: "help" };
  if (values.version) return { command: "version" };
  if (positionals.length) throw new UsageError(`unknown command "${positionals[0]}"`);
  const direct = [values.site, values.email, values["api-key"]].filter((v) => v !== undefined).length;
  if (values.spectator) {
    if (values.site === undefined) throw new UsageError("--spectator reads an organization without an account: give its URL with --site");
    if (values.email !== undefined || values["api-key"] !== undefined || values.config !== undefined || values.account !== undefined || values.demo) {
      throw new UsageError("--spectator reads without an account: leave out --email, --api-key, --config, --account and --demo");
    }
  } else if (direct > 0 && direct < 3) throw new UsageError("--site, --email and --api-key go together: give all three, or use --config");
  if (values.demo && (direct || values.config)) throw new UsageError("--demo logs in to the built-in demo server: leave out --config/--site");
  if (values.account !== undefined && (direct || values.demo)) throw new UsageError("--account picks a configured account: leave out --site/--email/--api-key and --demo");
  if (values.port !== undefined && !values.demo) throw new UsageError("--port applies to --demo (and to termchat server)");
  return {
    command: "client",
    config: values.config as string | undefined,
    account: values.account as string | undefined,
    site: values.site as string | undefined,
    email: values.email as string | undefined,
    apiKey: values["api-key"] as string | undefined,
    allowInsecureHttp: Boolean(values["allow-insecure-http"]),
    caFile: values["ca-file"] as string | undefined,
    demo: Boolean(values.demo),
    port: parsePort(values.port as string | undefined),
    color: !values["no-color"] && env.NO_COLOR === undefined,
    noCache: Boolean(values["no-cache"]),
    spectator: Boolean(values.spectator),
  };
}
