/**
 * The package as a user installs it: packed from the built repository, installed from the
 * tarball into an empty prefix with an empty npm cache and no network (it has no dependencies,
 * so nothing is fetched), then `termchat --version` and `termchat --demo` from the installed
 * command, with each Node.js binary at hand (see nodeBinaries in package.ts).
 */
import { execFile } from "node:child_process";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, ensureBuilt } from "./app.js";
import { installOffline, nodeBinaries, packInto, type Packed } from "./package.js";
import { TmuxSession } from "./tmux.js";

const nodes = nodeBinaries(ROOT);
const version = (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;
let dir: string;
let packed: Packed;
let command: string;
let session: TmuxSession | undefined;

beforeAll(async () => {
  ensureBuilt();
  dir = await mkdtemp(join(tmpdir(), "termchat-pack-"));
  packed = packInto(ROOT, dir, join(dir, "home"));
  command = installOffline(packed.tarball, join(dir, "prefix"), join(dir, "cache"), join(dir, "home"));
}, 240_000);

afterAll(async () => {
  await session?.kill();
  console.log(`package smoke ran on Node.js ${nodes.map((n) => `${n.version} (${n.path})`).join(", ")}`);
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** PATH with `node` first, so the installed command's `#!/usr/bin/env node` finds it. */
const pathWith = (node: string) => `${dirname(node)}:${process.env.PATH ?? ""}`;

it("packs the bundle, the licences and nothing of the build's own", () => {
  expect(packed.files).toContain("bin/termchat.cjs");
  expect(packed.files).toContain("dist/termchat.cjs");
  expect(packed.files).toContain("LICENSE");
  expect(packed.files).toContain("dist/THIRD-PARTY-LICENSES.txt");
  expect(packed.files.filter((f) => f.endsWith(".map") || f === "dist/meta.json" || f.startsWith("src/"))).toEqual([]);
  const notices = readFileSync(join(dir, "prefix/lib/node_modules/termchat/dist/THIRD-PARTY-LICENSES.txt"), "utf8");
  for (const name of ["ink", "react", "undici", "zod"]) expect(notices).toMatch(new RegExp(`^${name}@\\d+\\.\\d+\\.\\d+\\nLicense: MIT$`, "m"));
});

it("installs from the tarball with nothing else: no dependency comes along", () => {
  const installed = join(dir, "prefix/lib/node_modules/termchat");
  expect(existsSync(join(installed, "node_modules"))).toBe(false);
  expect(readdirSync(join(dir, "prefix/lib/node_modules"))).toEqual(["termchat"]);
});

describe.each(nodes.map((n) => [n.version, n.path] as const))("the installed termchat on Node.js %s", (nodeVersion, node) => {
  it("runs on this Node.js and prints its version", async () => {
    const env = { PATH: pathWith(node), HOME: join(dir, "home") };
    const ran = await new Promise<string>((res, rej) =>
      execFile("node", ["--version"], { env, timeout: 10_000 }, (err, out) => (err ? rej(err) : res(out.trim()))),
    );
    expect(ran).toBe(nodeVersion);
    const out = await new Promise<string>((res, rej) =>
      execFile(command, ["--version"], { env, timeout: 15_000 }, (err, stdout, stderr) => (err ? rej(new Error(`${err.message}\n${stderr}`)) : res(stdout))),
    );
    expect(out.trim()).toBe(`termchat ${version}`);
  });

  it("draws the demo organization in a terminal", async () => {
    const home = join(dir, "home");
    session = await TmuxSession.start([command, "--demo"], {
      cols: 110,
      rows: 30,
      cwd: dir,
      env: { PATH: pathWith(node), HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_STATE_HOME: join(home, ".state") },
    });
    await session.waitFor(/Inbox {2}\d+ unread/, { timeoutMs: 20_000 });
    await session.waitFor("#engineering");
    await session.kill();
    session = undefined;
  }, 40_000);
});
