// The image decoder's thread (src/render/images/worker-main.ts) is bundled on its own and carried
// inside the client's bundle as text: `import source from "termchat:image-decoder"` gives that
// text, and the client starts the thread from it (`new Worker(source, { eval: true })`). The
// thread then loads only the decoders, not the client (a thread that evaluated the whole bundle
// cost ~26 MiB at its peak; this one ~8). The build, the benchmarks and the tests (vitest.config.ts)
// all get the thread's code from here, built the same way.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("../src/render/images/worker-main.ts", import.meta.url));
export const IMAGE_WORKER_MODULE = "termchat:image-decoder";

/** The thread's code as one CommonJS script, and esbuild's metafile of it (for the licences). */
export async function buildImageWorker() {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    minify: true,
    write: false,
    metafile: true,
    outfile: "image-decoder.cjs",
    logLevel: "warning",
    // libwebp's WebAssembly travels inside the thread's code.
    loader: { ".wasm": "binary" },
    define: { "process.env.NODE_ENV": '"production"' },
  });
  const code = `${result.outputFiles[0].text}\n//# sourceURL=termchat-image-decoder.cjs\n`;
  return { code, metafile: result.metafile };
}

/** An esbuild plugin that resolves `termchat:image-decoder` to the thread's code; `built` hears its metafile. */
export function imageWorkerPlugin(built = () => undefined) {
  return {
    name: "image-worker",
    setup(b) {
      b.onResolve({ filter: /^termchat:image-decoder$/ }, () => ({ path: "image-decoder", namespace: "termchat-image-worker" }));
      b.onLoad({ filter: /.*/, namespace: "termchat-image-worker" }, async () => {
        const { code, metafile } = await buildImageWorker();
        built(metafile);
        return { contents: `export default ${JSON.stringify(code)};`, loader: "js" };
      });
    },
  };
}
