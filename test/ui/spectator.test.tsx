/**
 * The App of a spectator (no account) against the reference server: it opens
 * on the web-public channels' messages, the status line says who reads, and
 * every key that would write shows one line — "Reading as a spectator: log in
 * to write" — instead of a compose box, a picker or a request.
 */
import { afterEach, expect, it } from "vitest";
import { SPECTATOR_LINE } from "../../src/sync/account-handle.js";
import { SPECTATOR_PEOPLE_LINE, SPECTATOR_PERSONAL_LINE } from "../../src/ui/spectator.js";
import { renderApp, type AppHarness } from "./render-app.js";

let app: AppHarness | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

it("reads the web-public channels and answers every writing key with one line, sending nothing", async () => {
  app = await renderApp({ spectator: true });
  const a = app;
  await a.waitFor("Holiday schedule for December");
  expect(a.frame()).toMatch(/Lighthouse Labs · spectator/);
  expect(a.frame()).not.toContain(SPECTATOR_LINE);
  const requests = () => a.ctx.conformance.responses.map((r) => `${r.method} ${r.path}`);
  const before = requests().length;

  await a.press("\t");
  // Reply, new topic, new DM, 👍, star, mark read, edit, quote, the palette (Ctrl-K): each the same line, nothing else opens;
  // the starred view and a sender's card say what needs an account.
  const lines: Array<[string, string]> = [
    ...["r", "c", "x", "+", "*", "M", "e", ">", "\u000b"].map((k): [string, string] => [k, SPECTATOR_LINE]),
    ["f", SPECTATOR_PERSONAL_LINE],
    ["u", SPECTATOR_PEOPLE_LINE],
  ];
  for (const [key, line] of lines) {
    await a.press(key);
    await a.waitFor(line);
    expect(a.frame()).not.toMatch(/Enter send|new topic in|To:|Esc close/);
    await a.press("k");
    await a.until(() => !a.frame().includes(line), "the line cleared by the next key");
  }
  // Reading went on meanwhile: only reads reached the server, never a write.
  expect(requests().slice(before).filter((r) => !r.startsWith("GET "))).toEqual([]);
});
