import { accountsSchema, deviceCloudSecretNames } from "@fleet-alerts/core/config";
import { Option } from "commander";
import { CliError } from "./parse.js";

type Env = Readonly<Record<string, string | undefined>>;

/** `--account <id>`: which device-cloud account a command is about (FLEET_ALERTS_ACCOUNT in a shell). */
export function accountOption(): Option {
  return new Option(
    "--account <id>",
    "the device-cloud account, as the stage file names it; needed when more than one is configured",
  ).env("FLEET_ALERTS_ACCOUNT");
}

/** The accounts the environment configures (DEVICE_CLOUD_ACCOUNTS, as the local mode's); none when unset. */
export function configuredAccounts(env: Env = process.env) {
  if (env.DEVICE_CLOUD_ACCOUNTS === undefined) return [];
  const parsed = accountsSchema.safeParse(JSON.parse(env.DEVICE_CLOUD_ACCOUNTS));
  if (!parsed.success) throw new CliError("DEVICE_CLOUD_ACCOUNTS: not a valid list of accounts");
  return parsed.data;
}

/**
 * The account a command works on: the one named, else the only one configured. No account is
 * assumed: with several configured, or none known (a deployed stage's table), it must be named.
 */
export function chosenAccount(named: string | undefined, env: Env = process.env): string {
  const ids = configuredAccounts(env).map((account) => account.id);
  if (named !== undefined) {
    if (ids.length > 0 && !ids.includes(named))
      throw new CliError(`unknown account ${named}: configured are ${ids.join(", ")}`);
    return named;
  }
  if (ids.length === 1) return ids[0] as string;
  throw new CliError(
    ids.length > 1
      ? `--account is required: configured are ${ids.join(", ")}`
      : "--account is required (or FLEET_ALERTS_ACCOUNT)",
  );
}

/** Where an account's connection comes from: its entry, else DEVICE_CLOUD_<ID>_* (the stage's secret names). */
export function accountConnection(id: string, env: Env = process.env) {
  const entry = configuredAccounts(env).find((account) => account.id === id);
  if (entry) return { baseUrl: entry.baseUrl, username: entry.username, passwordEnv: entry.passwordEnv };
  const names = deviceCloudSecretNames(id);
  return {
    baseUrl: env[names.baseUrl],
    username: env[names.username],
    passwordEnv: env[names.password] === undefined ? undefined : names.password,
  };
}
