/**
 * The published package: size of the tarball `npm pack` makes from the built tree, and the
 * cold install of that tarball (empty npm cache, empty prefix, offline), as `npx termchat`
 * or `npm install -g termchat` pay it minus the download.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { installOffline, packInto } from "../test/e2e/package.js";
import { median, printFigure } from "./util.js";

const root = resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(join(tmpdir(), "termchat-bench-pack-"));
try {
  const packed = packInto(root, dir, join(dir, "home"));
  printFigure("tarball size (npm pack)", packed.bytes.toLocaleString("en"), "bytes");
  printFigure("files in the tarball", packed.files.length, "files");
  printFigure("unpacked size", packed.unpackedBytes.toLocaleString("en"), "bytes");
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    installOffline(packed.tarball, join(dir, `prefix-${i}`), join(dir, `cache-${i}`), join(dir, "home"));
    times.push(performance.now() - t);
  }
  printFigure("cold install (empty cache and prefix, offline), median of 5", Math.round(median(times)), "ms");
} finally {
  rmSync(dir, { recursive: true, force: true });
}
