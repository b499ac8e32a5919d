/**
 * Each benchmark image decoded alone on the decoder thread, each in a fresh process with nothing
 * else running: what decoding adds to resident memory (the kernel's high-water mark, reset just
 * before; the thread's own cost included) and how long it takes, into the 512-pixel box that
 * half-block previews use and the 1024-pixel one of terminals that draw pixels.
 */
import "./launcher-flags.js"; // first: V8 set as bin/termchat.cjs sets it
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ImageDecoderHost } from "../src/render/images/worker-host.js";
import { IMAGE_FILES } from "./image-files.js";
import { printFigure } from "./util.js";

const dir = resolve(import.meta.dirname, "images");
execFileSync(process.execPath, [join(import.meta.dirname, "image-files.js"), dir]);
const status = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync("/proc/self/status", "utf8"))?.[1]) / 1024;
const gc = () => (globalThis as { gc?: () => void }).gc?.();

const [only, sideArg] = process.argv.slice(2);
if (!only) {
  // Each case in a process of its own: the first thread of a process pays for what later ones reuse.
  for (const side of [512, 1024]) for (const kind of ["png", "jpeg", "gif", "thumbnail"]) spawnSync(process.execPath, ["--expose-gc", process.argv[1]!, kind, String(side)], { stdio: "inherit" });
  process.exit(0);
}
for (const side of [Number(sideArg)]) {
  for (const kind of [only as keyof typeof IMAGE_FILES]) {
    const file = readFileSync(join(dir, IMAGE_FILES[kind]));
    gc();
    await new Promise((r) => setTimeout(r, 300));
    const idle = status("VmRSS");
    writeFileSync("/proc/self/clear_refs", "5");
    const host = new ImageDecoderHost();
    const t = performance.now();
    const image = await host.decode(new Uint8Array(file), side, side);
    const ms = performance.now() - t;
    const peak = status("VmHWM");
    host.close();
    printFigure(`${kind.toUpperCase()} ${image.source.width}×${image.source.height} into ${image.width}×${image.height}: peak above idle`, (peak - idle).toFixed(0), `MiB in ${ms.toFixed(0)} ms (target ≤ 32 MiB)`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
process.exit(0);
