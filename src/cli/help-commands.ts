/** Help texts of the scriptable subcommands ("termchat CMD --help"). */
import type { Subcommand } from "./args-commands.js";

const ACCOUNT = `Account options:
  --account NAME          one of several accounts: [api:NAME] in ~/.zuliprc, or
                          ~/.config/termchat/accounts/NAME.zuliprc
  --config PATH           zuliprc to use (default: ~/.zuliprc)
  --site URL --email EMAIL --api-key KEY
                          the account without a zuliprc (all three together)
  --allow-insecure-http   allow plain http:// to a non-loopback server
  --ca-file PATH          PEM bundle of extra certificate authorities to trust`;

const EXIT = `Exit status: 0 ok, 1 refused by the server or network failure, 2 usage or configuration error.`;

export const COMMAND_HELP: Record<Subcommand, string> = {
  login: `Usage: termchat login [--site URL] [--email EMAIL | --username NAME] [--config PATH | --account NAME] [--force]

Logs in with your password and writes a zuliprc (mode 600) for the other commands.
Asks for what is not given; the password is read without echo. From a pipe, the
missing values are read one per line in the order site, email, password.
The password and the API key are never printed.

  --site URL              server URL, e.g. https://chat.example.com
  --email EMAIL           your login email (--username for LDAP logins)
  --config PATH           where to write the zuliprc (default: ~/.zuliprc)
  --account NAME          add the account NAME: writes ~/.config/termchat/accounts/NAME.zuliprc
  --force                 replace an existing zuliprc
  --allow-insecure-http   allow plain http:// to a non-loopback server
  --ca-file PATH          PEM bundle of extra certificate authorities to trust

${EXIT}
`,
  send: `Usage: termchat send --channel NAME|ID --topic TOPIC [--message TEXT] [--attach FILE…]
       termchat send --to EMAIL[,EMAIL…] [--message TEXT] [--attach FILE…]

Sends one message (never retried, so never twice). Without --message the text is read
from stdin. --attach uploads files first (the option may repeat; the words after it are
files too) and adds their links after the text. Prints the new message's ID.

${ACCOUNT}

${EXIT}
`,
  status: `Usage: termchat status [--text TEXT] [--emoji NAME] [--clear] [--away | --back]

Sets your status; with no option, prints it.
  --text TEXT    status text (at most 60 characters)
  --emoji NAME   status emoji by name, e.g. coffee
  --clear        remove the text and the emoji
  --away/--back  mark yourself away, or back

${ACCOUNT}

${EXIT}
`,
  messages: `Usage: termchat messages [--channel C [--topic T] | --dm EMAIL[,EMAIL…]] [--search Q] [--limit N] [--json]

Prints the newest messages (default 20, at most 5000), oldest first, one line each:
"time  sender  #channel > topic: first line". --json prints the messages as JSON.

${ACCOUNT}

${EXIT}
`,
  api: `Usage: termchat api METHOD PATH [key=value …]

Calls any endpoint; PATH is relative to /api/v1 (e.g. users/me). A value that parses as
JSON is sent as that value (numbers, true/false, arrays, objects); anything else is a
string. Prints the response as JSON. Only GET requests are retried.

Example: termchat api GET messages anchor=newest num_before=5 num_after=0

${ACCOUNT}

${EXIT}
`,
};
