// Writes one zuliprc per seeded account, for logging in with real clients.

import { chmod, mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { RunningServer } from "./index.js";

export async function writeZuliprcs(dir: string, server: RunningServer): Promise<string[]> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const paths: string[] = [];
  for (const account of server.accounts) {
    const localpart = account.email.split("@")[0] ?? account.email;
    const path = join(dir, `${localpart}.zuliprc`);
    const text = `[api]\nemail=${account.email}\nkey=${account.apiKey}\nsite=${server.url}\n`;
    await writeFile(path, text, { mode: 0o600 });
    await chmod(path, 0o600); // also when the file already existed
    paths.push(path);
  }
  return paths;
}
