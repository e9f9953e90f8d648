import { readFile } from "node:fs/promises";
import { GetParametersCommand, SSMClient, type SSMClientConfig } from "@aws-sdk/client-ssm";
import {
  type AccountSettingsConfig,
  accountSettingsListSchema,
  accountsSchema,
  ConfigError,
  deviceCloudSecretNames,
  jsonEnv,
  parseEnv,
} from "@fleet-alerts/core/config";
import * as z from "zod";
import { cachedOnSuccess } from "./once.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The bundled accounts file's name (infra/functions.ts writes and copies it; see withSecrets). */
export const ACCOUNTS_FILE_ENV = "DEVICE_CLOUD_ACCOUNTS_FILE";

/** Named SST secrets, each from the stage's value or else the app-wide fallback; throws for one unset. */
export async function readSstSecrets<Name extends string>(
  env: Env,
  names: readonly Name[],
  clientConfig: SSMClientConfig = {},
): Promise<Record<Name, string>> {
  const found = await findSstSecrets(env, names, clientConfig);
  const value = (name: Name) => {
    const secret = found.get(name);
    if (!secret)
      throw new Error(
        `secret ${name} is not set: npx sst secrets set ${name} <value> --stage ${env.SST_STAGE}`,
      );
    return secret;
  };
  return Object.fromEntries(names.map((name) => [name, value(name)])) as Record<Name, string>;
}

/**
 * The named SST secrets that are set (the stage's value, else the app-wide fallback), by name; an
 * unset one is absent. SST_SSM_PREFIX and SST_APP in `env` say where they are.
 */
export async function findSstSecrets<Name extends string>(
  env: Env,
  names: readonly Name[],
  clientConfig: SSMClientConfig = {},
): Promise<Map<Name, string>> {
  const ssm = new SSMClient(clientConfig);
  const stagePath = (name: string) => `${env.SST_SSM_PREFIX ?? ""}Secret/${name}/value`;
  const fallbackPath = (name: string) => `/sst/${env.SST_APP}/.fallback/Secret/${name}/value`;
  // GetParameters takes ten names at most: one call per ten, side by side.
  const read = async (paths: readonly string[]) => {
    const chunks = Array.from({ length: Math.ceil(paths.length / 10) }, (_, index) =>
      paths.slice(index * 10, index * 10 + 10),
    );
    const answers = await Promise.all(
      chunks.map((names) => ssm.send(new GetParametersCommand({ Names: names, WithDecryption: true }))),
    );
    return new Map(
      answers.flatMap(({ Parameters = [] }) =>
        Parameters.map((parameter) => [parameter.Name, parameter.Value]),
      ),
    );
  };
  try {
    const own = await read(names.map(stagePath));
    const unset = names.filter((name) => !own.get(stagePath(name)));
    const fallback = unset.length > 0 ? await read(unset.map(fallbackPath)) : new Map<string, string>();
    return new Map(
      names.flatMap((name) => {
        const found = own.get(stagePath(name)) ?? fallback.get(fallbackPath(name));
        return found ? [[name, found] as const] : [];
      }),
    );
  } finally {
    ssm.destroy(); // read once per cold start: no socket is kept
  }
}

/**
 * The incident function's environment: in a deployed stage (SST_APP set), the acknowledgement
 * form's secret is read from SSM, bound as INCIDENT_FORM_SECRET (infra/incident.ts); elsewhere (the
 * local mode, the tests) the environment carries it.
 */
export async function withFormSecret(
  env: Env,
  load: (env: Env) => Promise<Record<"INCIDENT_FORM_SECRET", string>> = (env) =>
    readSstSecrets(env, ["INCIDENT_FORM_SECRET"]),
): Promise<Env> {
  if (!env.SST_APP || env.INCIDENT_FORM_SECRET !== undefined) return env;
  return { ...env, ...(await load(env)) };
}

/**
 * The environment a handler configures itself from, for the given accounts (all the stage's when
 * none is named). In a deployed stage (SST_APP set) with no explicit DEVICE_CLOUD_ACCOUNTS, the
 * accounts are made from the bundled accounts file (ids, rules files, GPS settings: nothing secret)
 * and each account's SST secrets DEVICE_CLOUD_<ID>_BASE_URL, _USERNAME and _PASSWORD, read from SSM
 * now, so that addresses, users and passwords never sit in the template or the code. Elsewhere (the
 * local mode, the tests) it is `env` itself.
 */
export async function withSecrets(
  env: Env,
  accountIds?: readonly string[],
  load: (env: Env, names: readonly string[]) => Promise<Record<string, string>> = readSstSecrets,
): Promise<Env> {
  if (!env.SST_APP || env.DEVICE_CLOUD_ACCOUNTS !== undefined) return env;
  const stageAccounts = await readAccountsFile(env);
  const unknown = (accountIds ?? []).filter((id) => !stageAccounts.some((account) => account.id === id));
  if (unknown.length > 0)
    throw new Error(`unknown account ${unknown.join(", ")}: not in the stage's accounts`);
  const chosen = accountIds
    ? stageAccounts.filter((account) => accountIds.includes(account.id))
    : stageAccounts;
  const names = chosen.flatMap((account) => Object.values(deviceCloudSecretNames(account.id)));
  // SST marks each secret bound to the function in its environment; an unbound one may not be read.
  const shareLink = env.SST_Secret_value_SHARE_LINK_SECRET === undefined ? [] : ["SHARE_LINK_SECRET"];
  const secrets = await load(env, [...names, ...shareLink]);
  const accounts = chosen.map((account) => {
    const named = deviceCloudSecretNames(account.id);
    return {
      ...account,
      baseUrl: secrets[named.baseUrl],
      username: secrets[named.username],
      passwordEnv: named.password,
    };
  });
  return {
    ...env,
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify(accounts),
    ...Object.fromEntries(accounts.map(({ passwordEnv }) => [passwordEnv, secrets[passwordEnv]])),
    ...(secrets.SHARE_LINK_SECRET && { SHARE_LINK_SECRET: secrets.SHARE_LINK_SECRET }),
  };
}

/**
 * The stage's account ids, reading no secret: the bundled accounts file in a deployed stage, else
 * (the local mode, the tests) the environment's DEVICE_CLOUD_ACCOUNTS.
 */
export async function stageAccountIds(env: Env): Promise<string[]> {
  if (env.SST_APP && env.DEVICE_CLOUD_ACCOUNTS === undefined)
    return (await readAccountsFile(env)).map((account) => account.id);
  return parseEnv(
    z.object({ DEVICE_CLOUD_ACCOUNTS: jsonEnv(accountsSchema) }),
    env,
  ).DEVICE_CLOUD_ACCOUNTS.map((account) => account.id);
}

/**
 * The stage's accounts as infra/functions.ts bundled them (their rules files beside them). A file,
 * not an environment variable: a hundred accounts' ids and settings would not fit Lambda's 4 KB
 * environment, and the file is read once per container.
 */
export async function readAccountsFile(env: Env): Promise<AccountSettingsConfig[]> {
  const file = env[ACCOUNTS_FILE_ENV];
  if (!file) throw new ConfigError([`${ACCOUNTS_FILE_ENV}: missing (the stage's bundled accounts file)`]);
  const parsed = accountSettingsListSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
  if (!parsed.success) throw new ConfigError([`${ACCOUNTS_FILE_ENV} (${file}): ${parsed.error.message}`]);
  return parsed.data;
}

/**
 * Per-account runtimes, each built on first use and kept for the container's life (a failed build
 * is forgotten, see cachedOnSuccess): a function that handles one account's work reads only that
 * account's secrets.
 */
export function perAccount<T>(build: (accountId: string) => Promise<T>): (accountId: string) => Promise<T> {
  const built = new Map<string, () => Promise<T>>();
  return (accountId) => {
    let get = built.get(accountId);
    if (!get) {
      get = cachedOnSuccess(() => build(accountId));
      built.set(accountId, get);
    }
    return get();
  };
}

/**
 * The escalate function's environment: in a deployed stage where SHARE_LINK_SECRET is bound
 * (infra/escalation.ts), the secret is read from SSM; elsewhere the environment carries it, or the
 * re-sent messages go without their link.
 */
export async function withShareLinkSecret(
  env: Env,
  load: (env: Env) => Promise<Record<"SHARE_LINK_SECRET", string>> = (env) =>
    readSstSecrets(env, ["SHARE_LINK_SECRET"]),
): Promise<Env> {
  if (!env.SST_APP || env.SST_Secret_value_SHARE_LINK_SECRET === undefined) return env;
  if (env.SHARE_LINK_SECRET !== undefined) return env;
  return { ...env, ...(await load(env)) };
}
