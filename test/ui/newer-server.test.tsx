/**
 * The whole client (sync layer and App) against a newer server: the recorded bodies of
 * test/fixtures/newer-server served over HTTP on 127.0.0.1. The organization is drawn,
 * the events are applied with one register (no rebuild loop), and the status line says
 * once that some of what the server sends is not shown.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { act } from "react";
import { afterEach, expect, it } from "vitest";
import { ApiClient } from "../../src/api/http.js";
import { DEFAULT_SETTINGS } from "../../src/config/settings.js";
import { AccountRuntime } from "../../src/sync/account-runtime.js";
import { UNFAMILIAR_NOTE } from "../../src/sync/account-runtime.js";
import { serveRecorded } from "../fixtures/newer-server.js";
import { mountApp } from "./mount-app.js";

let cleanup: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

it("draws the organization, applies the events with one register, and notes once what it does not know", async () => {
  const server = await serveRecorded();
  cleanup.push(() => server.close());
  const stateDir = await mkdtemp(join(tmpdir(), "termchat-newer-"));
  cleanup.push(() => rm(stateDir, { recursive: true, force: true }));
  const client = new ApiClient({ site: server.url, email: "ines@harbor.example.com", apiKey: "recorded" });
  const session = await AccountRuntime.open({ client, account: { site: client.site.href, email: client.email }, stateDir });
  cleanup.push(() => session.dispose(1500));
  await session.machine.start();
  const instance = await mountApp(session, { settings: { ...DEFAULT_SETTINGS, startView: "feed" } });
  cleanup.push(async () => act(async () => instance.unmount()));
  const frame = () => instance.lastFrame() ?? "";
  const until = async (check: () => boolean, what: string) => {
    const deadline = Date.now() + 8000;
    for (let i = 0; i < 400 && Date.now() < deadline && !check(); i++) {
      await act(async () => {
        await new Promise((r) => setTimeout(r, 20));
      });
    }
    expect(check(), `${what}; last frame:\n${frame()}`).toBe(true);
  };

  // The first screen: the organization, its folders and channels, the combined feed.
  await until(() => frame().includes("Crane 2 goes live"), "the combined feed on screen");
  let screen = frame();
  expect(screen).toContain("Harbor Robotics");
  expect(screen).toMatch(/ENGINEERING[\s\S]*firmware/);
  expect(screen).toContain(":crane_sticker: 1"); // a reaction of a type the client does not know, by name
  expect(screen).toContain("encoder patch");
  expect(screen).not.toContain(UNFAMILIAR_NOTE.slice(0, 40));

  // Then the news: both recorded batches taken, and the next poll waiting.
  server.releaseEvents();
  await until(() => server.count("GET", "events") >= 3, "the client polls past the recorded events");
  const note = UNFAMILIAR_NOTE.slice(0, 40);
  await until(() => frame().includes(note), "the note on the status line");
  expect(frame().split(note).length - 1).toBe(1);

  // A key clears the note; no other takes its place.
  await act(async () => {
    instance.stdin.write("\t"); // to the message pane
    await new Promise((r) => setTimeout(r, 20));
    instance.stdin.write("G"); // its newest message
  });
  await until(() => frame().includes("crane 2 passed the load test"), "the new message on screen");
  screen = frame();
  expect(screen).not.toContain("buying coffee"); // deleted by an event of a message type the client does not know
  expect(screen).not.toContain(note);
  expect(screen).not.toContain("reconnecting");
  expect(server.count("POST", "register")).toBe(1);
  expect(session.machine.storeGeneration).toBe(1);
  expect(session.machine.state.kind).toBe("live");
});
