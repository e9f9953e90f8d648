import { deviceCloudSecretNames } from "@fleet-alerts/core/config";
import type { SecretSource } from "@fleet-alerts/core/doctor";
import { configuredAccounts } from "./account.js";
import type { LocalSecrets } from "./local-secrets.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * An account's secrets as the CLI's other commands find them in the shell (account.ts): its entry
 * in DEVICE_CLOUD_ACCOUNTS with the password in its `passwordEnv`, else DEVICE_CLOUD_<ID>_BASE_URL,
 * _USERNAME and _PASSWORD. Only names leave here, and the connection for the device cloud's check.
 */
export function environmentSecrets(env: Env): SecretSource {
  return {
    async read(account) {
      const entry = configuredAccounts(env).find((configured) => configured.id === account);
      const names = entry
        ? { baseUrl: undefined, username: undefined, password: entry.passwordEnv }
        : deviceCloudSecretNames(account);
      const value = (name: string | undefined) => (name === undefined ? undefined : env[name] || undefined);
      const baseUrl = entry?.baseUrl ?? value(names.baseUrl);
      const username = entry?.username ?? value(names.username);
      const password = value(names.password);
      if (baseUrl !== undefined && username !== undefined && password !== undefined)
        return { missing: [], connection: { baseUrl, username, password } };
      const missing = [
        baseUrl === undefined && names.baseUrl,
        username === undefined && names.username,
        password === undefined && names.password,
      ].filter((name): name is string => typeof name === "string");
      return { missing };
    },
    howToSet: (name) => `export ${name}=… in the shell that runs doctor`,
  };
}

/**
 * The local mode's: its simulated fleets' credentials from its secrets file (local-secrets.ts), and
 * any other account's (a real device cloud's) from the shell, as `environmentSecrets`.
 */
export function localSecrets(file: LocalSecrets, env: Env): SecretSource {
  const shell = environmentSecrets(env);
  return {
    read: async (account) => {
      const connection = file[account];
      return connection ? { missing: [], connection } : shell.read(account);
    },
    howToSet: shell.howToSet,
  };
}
