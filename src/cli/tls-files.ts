/**
 * The TLS files an account names (--ca-file or cert_bundle, client_cert, client_cert_key),
 * read for the ApiClient; a file that cannot be read is one line naming it. With insecure=true
 * a warning goes to stderr at every start: certificates are not checked at all.
 */
import { readFile } from "node:fs/promises";
import { ConfigError } from "../config/zuliprc.js";

export interface TlsFiles {
  caFile?: string;
  clientCert?: string;
  clientCertKey?: string;
  insecure?: boolean;
}

export interface TlsMaterial {
  ca?: string;
  cert?: string;
  key?: string;
  insecure?: boolean;
}

async function readPem(path: string | undefined, what: string): Promise<string | undefined> {
  if (!path) return undefined;
  const text = await readFile(path, "utf8").catch((err: NodeJS.ErrnoException) => {
    const why = err.code === "ENOENT" ? "no such file" : err.code === "EACCES" ? "permission denied" : err.code === "EISDIR" ? "a directory" : (err.code ?? "unreadable");
    throw new ConfigError(`cannot read the ${what} ${path} (${why})`);
  });
  if (!text.includes("-----BEGIN ")) throw new ConfigError(`the ${what} ${path} is not in PEM format (no "-----BEGIN" line)`);
  return text;
}

export const INSECURE_WARNING =
  "WARNING: insecure=true: TLS certificates are NOT verified; anyone on the network path can read and change this session, API key included.";

/** The same, short enough for the status line. */
export const INSECURE_NOTE = "TLS verification is OFF (insecure=true): this connection can be read and changed by others.";

export async function readTlsFiles(f: TlsFiles, warn: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): Promise<TlsMaterial> {
  const [ca, cert, key] = await Promise.all([
    readPem(f.caFile, "CA bundle"),
    readPem(f.clientCert, "client certificate"),
    readPem(f.clientCertKey, "client certificate key"),
  ]);
  if (f.insecure) warn(INSECURE_WARNING);
  return { ca, cert, key, insecure: f.insecure };
}
