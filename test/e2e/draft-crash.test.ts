/**
 * The compose text survives a crash: type half a sentence, kill the client
 * with SIGKILL, start it again, and the words are back in the compose box of
 * the same conversation (and in the drafts list).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, beforeAll, expect, it } from "vitest";
import { BIN, ROOT, ensureBuilt, freePort, startApp } from "./app.js";
import type { TmuxSession } from "./tmux.js";

let session: TmuxSession | undefined;
let server: ChildProcess | undefined;

beforeAll(() => ensureBuilt());
afterEach(async () => {
  await session?.kill();
  session = undefined;
  server?.kill("SIGTERM");
  server = undefined;
});

async function startServer(port: number, dir: string): Promise<void> {
  server = spawn(process.execPath, [BIN, "server", "--port", String(port), "--zuliprc-dir", dir], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  const lines = createInterface({ input: server.stdout! });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the server did not start within 15 s")), 15_000);
    lines.on("line", (l) => {
      if (l.includes("Press Ctrl-C")) {
        clearTimeout(timer);
        resolve();
      }
    });
    server!.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
  });
}

async function openGeneralTopic(s: TmuxSession): Promise<void> {
  await s.waitFor(/Inbox {2}\d+ unread/); // the home view has the keys
  await s.sendKeys("Escape"); // to the sidebar
  await s.sendKeys("q");
  await s.type("general");
  await s.waitFor("#general");
  await s.sendKeys("Enter");
}

it("restores half a sentence after kill -9, in the same conversation", async () => {
  const dir = mkdtempSync(join(tmpdir(), "termchat-crash-"));
  const port = await freePort();
  await startServer(port, join(dir, "rc"));
  const env = { XDG_STATE_HOME: join(dir, "state"), XDG_CONFIG_HOME: join(dir, "config") };
  const args = ["--config", join(dir, "rc", "maya.zuliprc")];

  session = await startApp(args, { env });
  await session.waitFor(/connected/, { timeoutMs: 15_000 });
  // Open #general (filter the sidebar, Enter), go to the messages and reply to the selected one.
  await openGeneralTopic(session);
  // The pane's title (the first line) is #general and one of its messages is selected: ▌ (dim while the
  // sidebar has the keys) before its sender line, which ends in the time (the sidebar's cursor, at the line's start, has no time).
  await session.waitFor(/^[^\n]*#general *\n[\s\S]* ▌\S[^\n]* \d{1,2}:\d{2}/);
  await session.sendKeys("Tab");
  await session.sendKeys("r");
  const composeScreen = await session.waitFor(/#general > .*Enter send/);
  const label = /(#general > .*?)\s+Enter send/.exec(composeScreen)![1]!;
  await session.type("the deploy went fine but we sho");
  await session.waitFor("we sho");
  await new Promise((r) => setTimeout(r, 1200)); // the journal writes within ~300 ms of the last key
  const pid = await session.pid();
  expect(pid).toBeDefined();
  process.kill(pid!, "SIGKILL");
  await session.waitForExit({ timeoutMs: 5000 }).catch(() => undefined);
  await session.kill();

  session = await startApp(args, { env });
  await session.waitFor(/connected/, { timeoutMs: 15_000 });
  // The drafts list offers it; Enter resumes it in its conversation, words and all.
  await session.sendKeys("D");
  await session.waitFor("we sho");
  await session.sendKeys("Enter");
  const restored = await session.waitFor(/Enter send[\s\S]*the deploy went fine but we sho/);
  expect(restored).toContain(label);
});
