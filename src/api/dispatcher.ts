/**
 * The connection pool an ApiClient sends through: undici's Agent, or — when HTTPS_PROXY,
 * HTTP_PROXY (or their lower-case forms) are set — its proxy agent, which tunnels through the
 * proxy with CONNECT and honours NO_PROXY (hosts, domains, `*`, host:port). Both take the same
 * TLS settings for the organization's server. The proxy module loads only when a proxy is set.
 */
import type { Dispatcher } from "undici";
// The pool itself is on the start path; the package's index would load fetch, WebSocket and more.
import Agent from "undici/lib/dispatcher/agent.js";

export interface TlsSettings {
  /** PEM bundle of certificate authorities trusted besides the built-in ones (and NODE_EXTRA_CA_CERTS). */
  ca?: string | Buffer;
  /** Client certificate (PEM) for servers that ask for one, and its private key (or both in `cert`). */
  cert?: string | Buffer;
  key?: string | Buffer;
  /** Skip certificate verification altogether. */
  insecure?: boolean;
}

type Env = Record<string, string | undefined>;

/**
 * The environment without its proxy settings: for a server this process runs itself (the
 * demo's, on loopback), which no proxy could reach and none should carry.
 */
export function withoutProxy(env: Env): Env {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^(https?|no)_proxy$/i.test(name)));
}

export function proxyConfigured(env: Env = process.env): boolean {
  return Boolean(env.https_proxy || env.HTTPS_PROXY || env.http_proxy || env.HTTP_PROXY);
}

/** The built-in authorities plus NODE_EXTRA_CA_CERTS: giving `ca` to TLS replaces them, so they are passed along. */
async function defaultAuthorities(env: Env, rootCertificates: readonly string[]): Promise<(string | Buffer)[]> {
  const out: (string | Buffer)[] = [...rootCertificates];
  const extra = env.NODE_EXTRA_CA_CERTS;
  if (extra) {
    const { readFile } = await import("node:fs/promises");
    const text = await readFile(extra, "utf8").catch(() => undefined);
    if (text) out.push(text);
  }
  return out;
}

export async function tlsConnectOptions(tls: TlsSettings, env: Env = process.env): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { rejectUnauthorized: !tls.insecure };
  if (!tls.ca && !tls.cert) return out;
  // One context for every connection: the authorities are parsed once, not at each connect.
  const { createSecureContext, rootCertificates } = await import("node:tls");
  out.secureContext = createSecureContext({
    ...(tls.ca ? { ca: [...(await defaultAuthorities(env, rootCertificates)), tls.ca] } : {}),
    ...(tls.cert ? { cert: tls.cert, key: tls.key ?? tls.cert } : {}),
  });
  return out;
}

export async function createDispatcher(tls: TlsSettings, env: Env = process.env): Promise<Dispatcher> {
  const connect = await tlsConnectOptions(tls, env);
  const common = { keepAliveTimeout: 30_000, connect };
  if (!proxyConfigured(env)) {
    return new Agent(common);
  }
  const [{ default: EnvHttpProxyAgent }, { default: DispatcherClass }, { default: connectCall }] = await Promise.all([
    import("undici/lib/dispatcher/env-http-proxy-agent.js"),
    import("undici/lib/dispatcher/dispatcher.js"),
    import("undici/lib/api/api-connect.js"),
  ]);
  // The tunnel is opened with the pool's CONNECT call, which undici's index installs on every
  // dispatcher; loaded piecemeal, it is installed here, as the index would.
  const proto = DispatcherClass.prototype as { connect?: unknown };
  proto.connect ??= connectCall;
  return new EnvHttpProxyAgent({
    ...common,
    requestTls: connect,
    httpProxy: env.http_proxy || env.HTTP_PROXY || undefined,
    httpsProxy: env.https_proxy || env.HTTPS_PROXY || undefined,
    noProxy: env.no_proxy ?? env.NO_PROXY ?? "",
  });
}
