/**
 * Accounts added and removed while the app runs (several accounts open): an
 * account is added by a password login, as `termchat login --account NAME`
 * does (its NAME.zuliprc written 0600 in termchat's accounts directory), then
 * opened and connected in the registry and put on screen; one removed is
 * closed and its file in the accounts directory deleted (an account of
 * ~/.zuliprc is closed only: that file is the user's).
 */
import { rm } from "node:fs/promises";
import { describeError } from "../api/errors.js";
import { normalizeSite } from "../api/site.js";
import { accountFilePath, accountsInZuliprc, checkAccountName, defaultAccountPaths, fileExists, type AccountPaths } from "../config/accounts.js";
import { exchangeAndWrite } from "../config/login.js";
import { readPrivateFile } from "../config/zuliprc.js";
import type { AccountsAdmin } from "../sync/account-handle.js";
import type { AccountRuntimeOptions } from "../sync/account-runtime.js";
import type { AccountsRegistry } from "../sync/accounts-registry.js";
import { failed, succeeded } from "../sync/actions/result.js";
import { accountOf, type Account } from "./account.js";

export function accountsAdmin(registry: AccountsRegistry, optionsFor: (a: Account & { name: string }) => Promise<AccountRuntimeOptions>, paths: AccountPaths = defaultAccountPaths()): AccountsAdmin {
  return {
    async add({ name, site, username, password }) {
      try {
        checkAccountName(name);
        if (registry.list().some((h) => h.name === name)) return failed(`An account named ${name} is open already`);
        const path = accountFilePath(name, paths);
        if (await fileExists(path)) return failed(`${path} exists already: choose another name`);
        const { fetchApiKey } = await import("../api/routes/auth.js");
        await exchangeAndWrite({ site: normalizeSite(site), username, password, path }, fetchApiKey);
        const [found] = accountsInZuliprc(await readPrivateFile(path), path, name).accounts;
        if (!found) return failed(`${path} was written but cannot be read back`);
        const { handle, runtime } = await registry.open(await optionsFor({ name, ...accountOf(found, { allowInsecureHttp: false }) }));
        await runtime.start();
        registry.setActive(handle.key);
        return succeeded(`${name} added (${path})`);
      } catch (err) {
        return failed(describeError(err));
      }
    },
    async remove(key) {
      const h = registry.get(key);
      if (!h) return failed("No such account is open");
      if (registry.list().length < 2) return failed("This is the only account open: quit instead");
      await registry.close(key);
      const path = accountFilePath(h.name, paths);
      if (!(await fileExists(path))) return succeeded(`${h.name} closed (its zuliprc is not in termchat's accounts directory, so it stays)`);
      await rm(path, { force: true });
      return succeeded(`${h.name} removed (${path} deleted)`);
    },
  };
}
