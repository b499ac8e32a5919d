// The reference server: an in-process implementation of the team chat API on
// node:http with in-memory state, seeded from a data set.

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { FEATURE_LEVEL, type ServerContext } from "./context.js";
import { Router } from "./http.js";
import { MarkdownRenderer } from "./markdown-html.js";
import { QueueManager } from "./queues.js";
import { DEFAULT_RATE_LIMIT, RateLimiter } from "./rate-limit.js";
import { allRoutes } from "./routes/index.js";
import { Scheduler } from "./scheduled-delivery.js";
import { seed } from "./seed/index.js";
import { THUMBNAIL_FORMATS } from "./image-thumbnails.js";
import { isUploadPath, serveUpload } from "./upload-download.js";
import { setMaxUploadMib } from "./uploads.js";
import type { RunningServer, ServerOptions } from "./types.js";

export type { DemoAccount, FileRequestRecord, ResponseRecord, RunningServer, ServerOptions } from "./types.js";
export { writeZuliprcs } from "./zuliprc.js";

export async function startServer(opts: ServerOptions = {}): Promise<RunningServer> {
  const host = opts.host ?? "127.0.0.1";
  const now = opts.now ?? Date.now;
  const heartbeatMs = opts.heartbeatMs ?? 60_000;
  const { state, accounts } = seed(opts.data ?? "demo", now());
  if (opts.maxFileUploadSizeMib !== undefined) setMaxUploadMib(state, opts.maxFileUploadSizeMib);
  const queues = new QueueManager(now, heartbeatMs);
  const thumbnailFormats = opts.thumbnails === false ? [] : THUMBNAIL_FORMATS;
  // The scheduler reads the context it belongs to: it is set right after.
  const ctx = {
    state,
    queues,
    markdown: new MarkdownRenderer(state, thumbnailFormats),
    now,
    realmUrl: "",
    options: {
      heartbeatMs,
      queueIdleMs: opts.queueIdleMs ?? 600_000,
      longpollTimeoutSecs: opts.longpollTimeoutSecs ?? 90,
      thumbnailFormats,
      featureLevel: opts.featureLevel ?? FEATURE_LEVEL,
    },
  } as ServerContext;
  // A clock of the caller's moves on its own: look at it often. The real one is slept on until the
  // next delivery, a minute at most (a suspended machine's timers run late).
  ctx.scheduler = new Scheduler(ctx, opts.now ? 100 : 60_000);
  if (opts.onResponse) ctx.onResponse = opts.onResponse;
  if (opts.onFileRequest) ctx.onFileRequest = opts.onFileRequest;
  if (opts.rateLimit !== false) ctx.rateLimiter = new RateLimiter(opts.rateLimit ?? DEFAULT_RATE_LIMIT, now);
  const router = new Router(ctx);
  router.add(allRoutes);

  const server: Server = createServer((req, res) => {
    if (isUploadPath(req.url ?? "")) serveUpload(ctx, req, res);
    else void router.handle(req, res);
  });
  // As long as nginx in front of the real service keeps an idle connection (75 s): a client that
  // pauses a few seconds between requests (a busy test machine, a person) must not have its
  // reused connection closed under it (ECONNRESET on the next request).
  server.keepAliveTimeout = 75_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  ctx.realmUrl = url;

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      ctx.scheduler.close();
      queues.shutdown(); // answers pending long-polls
      server.close(() => resolve());
      // Let the long-poll answers go out, then drop idle keep-alive sockets and the rest.
      setImmediate(() => {
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 50).unref();
      });
    });
    return closing;
  };
  return { url, port, accounts, close };
}
