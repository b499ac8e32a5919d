/** Runs the reference server with a data set for a benchmark; prints its URL and owner credentials as one JSON line. */
import { startServer } from "../src/server/index.js";

const data = (process.argv[2] ?? "large") as "demo";
const started = performance.now();
// BENCH_SERVER_THUMBNAILS=off: a server from before thumbnails (clients decode the files themselves).
// BENCH_RATE_LIMIT=off: no per-user request budget (a bench that asks every channel's topics).
const server = await startServer({ port: 0, data, thumbnails: process.env.BENCH_SERVER_THUMBNAILS !== "off", ...(process.env.BENCH_RATE_LIMIT === "off" ? { rateLimit: false } : {}) });
const owner = server.accounts[0]!;
process.stdout.write(
  JSON.stringify({ url: server.url, email: owner.email, apiKey: owner.apiKey, seedMs: Math.round(performance.now() - started) }) + "\n",
);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
