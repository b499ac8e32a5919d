/**
 * Every element of the service's Markdown dialect the client renders, through the built
 * binary: another member sends one message per element through the reference server, the
 * client (the bundle, in tmux) shows them, and each element's part of the screen is checked —
 * the element drawn, and none of its Markdown markers left where it was recognised. The screen
 * tests run the sources; this one runs what ships, so a difference between the two (a
 * dependency swapped at build time, say) shows here. A failure names the element.
 */
import stringWidth from "string-width";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { startServer, type RunningServer } from "../../src/server/index.js";
import { FLOOR_PLAN_URL } from "../../src/server/seed/demo-files.js";
import { apiAs, ensureBuilt, startClientOn } from "./app.js";

let server: RunningServer | undefined;
let client: Awaited<ReturnType<typeof startClientOn>> | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await client?.done();
  client = undefined;
  await server?.close();
  server = undefined;
});

/** What one element's part of the screen must show: plain text (and, for some, its colours). */
interface Element {
  name: string;
  source: string;
  /** Text (or patterns) that must be on screen: the element drawn. */
  drawn: Array<string | RegExp>;
  /** Markers of the source that must not be on screen once the element is recognised. */
  raw: Array<string | RegExp>;
  /** A check on the element's styled lines (SGR as tmux redraws them), with what it looks for. */
  styled?: [what: string, check: (styled: string) => boolean];
}

/** The style in force just before `word` on a styled line: its foreground colour and attributes (1 bold, 7 inverse…). */
function styleBefore(line: string, word: string): { fg: string | undefined; bg: string | undefined; attrs: Set<string> } {
  const at = line.indexOf(word);
  const style = { fg: undefined as string | undefined, bg: undefined as string | undefined, attrs: new Set<string>() };
  if (at < 0) return style;
  for (const m of line.slice(0, at).matchAll(/\x1b\[([\d;:]*)m/g)) { // eslint-disable-line no-control-regex
    const ps = (m[1] ?? "").split(/[;:]/);
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i]!;
      if (p === "" || p === "0") {
        style.fg = undefined;
        style.bg = undefined;
        style.attrs.clear();
      } else if (p === "38") {
        const n = ps[i + 1] === "5" ? 2 : 4; // 38;5;n or 38;2;r;g;b
        style.fg = ps.slice(i, i + n + 1).join(";");
        i += n;
      } else if (p === "48") {
        const n = ps[i + 1] === "5" ? 2 : 4;
        style.bg = ps.slice(i, i + n + 1).join(";");
        i += n;
      } else if (/^(3[0-7]|9[0-7])$/.test(p)) style.fg = p;
      else if (/^(4[0-7]|10[0-7])$/.test(p)) style.bg = p;
      else if (p === "39") style.fg = undefined;
      else if (p === "49") style.bg = undefined;
      else if (/^[1-9]$/.test(p)) style.attrs.add(p);
      else if (p === "22") (style.attrs.delete("1"), style.attrs.delete("2"));
      else if (/^2[3-9]$/.test(p)) style.attrs.delete(p.slice(1));
    }
  }
  return style;
}

/** The elements, one message each; `lena` is a user's id, for a mention written with one. */
const elements = (lena: number): Element[] => [
  {
    name: "table",
    source: "| name | role |\n|---|---|\n| Ada | **lead** |\n| Grace | `dev` |\n\nand **bold** text",
    drawn: [/┌─+┬─+┐/, /│ name +│ role +│/, /│ Ada +│ lead +│/, /│ Grace +│ dev +│/, /└─+┴─+┘/, "and bold text"],
    raw: ["|---", "| name |", "**", "`"],
  },
  {
    name: "fenced code with highlighting",
    source: "```python\ndef greet(name):\n    return 'hi ' + name\n```",
    drawn: ["def greet(name):", "return 'hi ' + name"],
    raw: ["```", "python"],
    styled: [
      "the keyword and the string in different colours",
      (s) => {
        const line = s.split("\n").find((l) => l.includes("'hi '")) ?? "";
        const keyword = styleBefore(line, "return").fg;
        return keyword !== undefined && keyword !== styleBefore(line, "'hi '").fg;
      },
    ],
  },
  {
    name: "emphasis",
    source: "**strong** and *slanted* and ~~struck~~ and `spanned`",
    drawn: ["strong and slanted and struck and spanned"],
    raw: ["**", "~~", "`", /\*slanted/],
  },
  {
    name: "quotes",
    source: "> quoted words\n\n```quote\nfenced quote words\n```",
    drawn: ["▎ quoted words", "▎ fenced quote words"],
    raw: ["> quoted", "```"],
  },
  {
    name: "nested lists",
    source: "- outer one\n  - inner one\n    - innermost\n- outer two\n\n1. first\n2. second",
    drawn: [/^( *)\* outer one\n\1 {2,}\* inner one\n\1 {4,}\* innermost\n\1\* outer two$/m, /1\. first\n *2\. second/],
    raw: [/- (outer|inner)/],
  },
  {
    name: "spoilers",
    source: "```spoiler Secret header\nhidden words\n```",
    drawn: ["▶ Secret header (spoiler)"],
    raw: ["```", "hidden words"],
  },
  {
    name: "mentions and silent mentions",
    source: `hi @**Maya Okafor** and @_**Omar Haddad** and @**Lena Old Name|${lena}**`,
    drawn: ["hi @Maya Okafor and @Omar Haddad and @Lena Fischer"],
    raw: ["**", "@_", "|"],
    styled: [
      "the reader's own mention stands out: inverse video or a background colour",
      (s) => {
        const own = styleBefore(s.split("\n").find((l) => l.includes("@Maya")) ?? "", "@Maya");
        return own.attrs.has("7") || own.bg !== undefined;
      },
    ],
  },
  {
    name: "group mentions",
    source: "ping @*design-team* and @**all**",
    drawn: ["ping @design-team and @all"],
    raw: ["@*", "*"],
  },
  {
    name: "channel and topic links",
    source: "see #**general** and #**general>new office**",
    drawn: ["see #general and #general > new office"],
    raw: ["#**", "**", ">new"],
  },
  {
    name: "emoji and custom emoji",
    source: "party :tada: with :lighthouse: but not :no_such_emoji:",
    drawn: ["party 🎉 with :lighthouse: but not :no_such_emoji:"],
    raw: [":tada:"],
    styled: [
      "the custom emoji in colour, the unknown name plain",
      (s) => {
        const line = s.split("\n").find((l) => l.includes(":lighthouse:")) ?? "";
        return styleBefore(line, ":lighthouse:").fg !== undefined && styleBefore(line, ":no_such_emoji:").fg === undefined;
      },
    ],
  },
  {
    name: "links",
    source: "read [the docs](https://example.com/docs) and <https://example.org/raw>",
    drawn: ["read the docs (https://example.com/docs) and https://example.org/raw"],
    raw: ["](", "[the docs", "<https"],
  },
  {
    name: "inline images",
    source: `the plan: [floor-plan.png](${FLOOR_PLAN_URL})`,
    drawn: [/^▨ floor-plan\.png$/m, /▀{20}/],
    raw: ["](", "[floor"],
  },
  {
    name: "global times",
    source: "meet at <time:2024-06-01T15:00:00Z>",
    drawn: ["meet at Sat, Jun 1, 2024, 15:00"],
    raw: ["<time:", "2024-06-01T"],
  },
  {
    name: "math as text",
    source: "inline $$x^2$$ here\n\n```math\n\\frac{a}{b}\n```",
    drawn: ["inline $$x^2$$ here", /^ {2}\\frac\{a\}\{b\}$/m],
    raw: ["```"],
  },
  {
    name: "/me",
    source: "/me waves hello",
    drawn: [/^\* Ben Carter waves hello {2}\d/m],
    raw: ["/me"],
  },
  {
    name: "polls",
    source: "/poll Lunch where?\nPizza place\nSushi bar",
    drawn: ["Poll: Lunch where?", /\[ \] 0 {2}Pizza place/, /\[ \] 0 {2}Sushi bar/],
    raw: ["/poll"],
  },
  {
    name: "to-do lists",
    source: "/todo Chores\nDishes: kitchen\nLaundry: basement",
    drawn: ["To-do: Chores", "[ ] Dishes: kitchen", "[ ] Laundry: basement"],
    raw: ["/todo"],
  },
];

const COLS = 110;
const ROWS = 160;
const TOPIC = "dialect";
const marker = (name: string) => `==== ${name} ====`;

/** The rest of a screen line from display column `col` on (tmux writes a wide character once). */
function fromColumn(line: string, col: number): string {
  let width = 0;
  let i = 0;
  for (const { segment } of new Intl.Segmenter().segment(line)) {
    if (width >= col) break;
    width += stringWidth(segment);
    i += segment.length;
  }
  return line.slice(i);
}

/** The message pane's lines, without the sidebar and without the pane's gutter (selection bar, unread dots). */
function paneLines(screen: string, paneColumn: number): string[] {
  return screen.split("\n").map((l) => fromColumn(l, paneColumn).replace(/^[▌● ] ?/u, "").trimEnd());
}

/** Each element's lines, from its marker message to the next one. */
function sections(lines: string[]): Map<string, string> {
  const out = new Map<string, string>();
  let name: string | undefined;
  let body: string[] = [];
  const flush = () => {
    if (name !== undefined) out.set(name, body.join("\n"));
  };
  for (const line of lines) {
    const m = /^==== (.+) ====$/.exec(line.trim());
    if (m) {
      flush();
      name = m[1];
      body = [];
    } else if (name !== undefined) {
      body.push(line);
    }
  }
  flush();
  return out;
}

describe("the service's Markdown dialect in the built client", () => {
  it("draws every element, with no raw markers where it was recognised", async () => {
    server = await startServer({ port: 0, host: "127.0.0.1" });
    const ben = await apiAs(server.url, "ben@lighthouse.test");
    const members = (await ben("GET", "users")).members as Array<{ user_id: number; full_name: string }>;
    const ELEMENTS = elements(members.find((u) => u.full_name === "Lena Fischer")!.user_id);
    const send = async (content: string) => {
      const res = await ben("POST", "messages", { type: "stream", to: "general", topic: TOPIC, content });
      if (res.result !== "success") throw new Error(`send ${JSON.stringify(content)}: ${JSON.stringify(res)}`);
    };
    for (const e of ELEMENTS) {
      await send(marker(e.name));
      await send(e.source);
    }
    await send(marker("end"));

    // Colour (the highlighting and the image need it), and one time zone for the time element.
    client = await startClientOn(server.url, server.accounts[0]!, { cols: COLS, rows: ROWS, env: { COLORTERM: "truecolor", TZ: "UTC" } });
    const session = client.session;
    await session.waitFor(/connected/, { timeoutMs: 15_000 });
    await session.sendKeys("/");
    await session.waitFor("Search");
    await session.type(`topic:${TOPIC}`);
    await session.sendKeys("Enter");
    await session.waitFor(marker("end"), { timeoutMs: 10_000 });
    // The image is fetched and decoded after the first drawing; then the screen is complete.
    const screen = await session.waitFor(/▀{20}/, { timeoutMs: 10_000 });
    const styled = await session.captureStyled();

    const header = screen.split("\n").find((l) => l.includes(`Search: topic:${TOPIC}`)) ?? "";
    const paneColumn = stringWidth(header.slice(0, header.indexOf("Search:")));
    const plain = sections(paneLines(screen, paneColumn));
    const failures: string[] = [];
    for (const e of ELEMENTS) {
      const shown = plain.get(e.name);
      if (shown === undefined) {
        failures.push(`${e.name}: not on screen`);
        continue;
      }
      for (const d of e.drawn) {
        const ok = typeof d === "string" ? shown.includes(d) : d.test(shown);
        if (!ok) failures.push(`${e.name}: not drawn: ${String(d)}`);
      }
      for (const r of e.raw) {
        const left = typeof r === "string" ? shown.includes(r) : r.test(shown);
        if (left) failures.push(`${e.name}: raw marker left: ${String(r)}`);
      }
      if (e.styled) {
        // The styled screen's lines of this element: those whose text holds one of its plain lines.
        const lines = styled.split("\n").filter((l) => shown.split("\n").some((p) => p.trim() !== "" && l.replace(/\x1b\[[\d;:]*m/g, "").includes(p.trim()))); // eslint-disable-line no-control-regex
        if (!e.styled[1](lines.join("\n"))) failures.push(`${e.name}: not styled: ${e.styled[0]}: ${JSON.stringify(lines)}`);
      }
      if (failures.some((f) => f.startsWith(`${e.name}:`))) failures.push(`  ${e.name} as shown:\n${shown}`);
    }
    expect(failures, failures.join("\n")).toEqual([]);
  }, 60_000);
});
