/**
 * The bundle loads the UI with a dynamic import, and Ink initializes with a
 * top-level await: esbuild then initializes those modules asynchronously, and
 * an import cycle among them deadlocks start-up (a blank screen forever). So:
 * no import cycles among our own modules.
 */
import { build } from "esbuild";
import { expect, it } from "vitest";

it("has no import cycles among the project's modules", async () => {
  const result = await build({
    entryPoints: ["src/cli/main.ts"],
    bundle: true,
    write: false,
    metafile: true,
    platform: "node",
    format: "esm",
    logLevel: "silent",
    alias: { "react-devtools-core": "./scripts/devtools-stub.mjs" },
    loader: { ".wasm": "binary" },
    // The image decoder thread's code is a separate build the bundle carries as text: left out here.
    external: ["termchat:image-decoder"],
  });
  const graph = new Map<string, string[]>();
  for (const [file, info] of Object.entries(result.metafile.inputs)) {
    if (file.startsWith("src/")) graph.set(file, info.imports.map((i) => i.path).filter((p) => p.startsWith("src/")));
  }
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, "open");
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (state.get(m) === "open") cycles.push([...stack.slice(stack.indexOf(m)), m].join(" → "));
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, "done");
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n);
  expect(graph.size).toBeGreaterThan(50);
  expect(cycles).toEqual([]);
});
