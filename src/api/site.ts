/**
 * The organization's address as the user writes it (a flag, a config file, the login prompt),
 * checked and made canonical before any request. The rules of what a site may be, apart from the
 * HTTP client that then talks to it (http.ts).
 */

export class SiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SiteError";
  }
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i;

/**
 * Parses and checks an organization URL (`chat.example.com`, `https://chat.example.com/`,
 * with or without `/api` or `/api/v1` at the end); plain HTTP only to loopback unless allowed.
 */
export function normalizeSite(site: string, allowInsecureHttp = false, spectator = false): URL {
  let text = site.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `https://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SiteError(`"${site}" is not a valid server URL (expected something like https://chat.example.com)`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new SiteError(`Unsupported URL scheme "${url.protocol}" in ${site}: use https://`);
  }
  if (url.protocol === "http:" && !LOOPBACK.test(url.hostname) && !allowInsecureHttp) {
    throw new SiteError(
      `Refusing plain http:// to ${url.hostname}: ${spectator ? "what you read could be read or changed on the way" : "your API key would travel unencrypted"}. ` +
        `Use https://, or pass --allow-insecure-http if you really mean it.`,
    );
  }
  // The API's own path is added per request: a site written with it ("…/api", "…/api/v1/") means the same server.
  url.pathname = url.pathname.replace(/\/+$/, "").replace(/\/api(?:\/v1)?$/i, "").replace(/\/+$/, "");
  url.search = "";
  url.hash = "";
  return url;
}
