import { GetParametersCommand, SSMClient, type SSMClientConfig } from "@aws-sdk/client-ssm";

type Env = Readonly<Record<string, string | undefined>>;

/** The device-cloud secrets a deployed stage binds (see infra/Pipeline.ts). */
export interface DeviceCloudSecrets {
  DEVICE_CLOUD_BASE_URL: string;
  DEVICE_CLOUD_USERNAME: string;
  DEVICE_CLOUD_PASSWORD: string;
  /** Only for the functions bound to it (those that publish alerts: infra/polling.ts). */
  SHARE_LINK_SECRET?: string;
}

const DEVICE_CLOUD_SECRET_NAMES = [
  "DEVICE_CLOUD_BASE_URL",
  "DEVICE_CLOUD_USERNAME",
  "DEVICE_CLOUD_PASSWORD",
] as const satisfies readonly (keyof DeviceCloudSecrets)[];
type SecretName = (typeof DEVICE_CLOUD_SECRET_NAMES)[number] | "SHARE_LINK_SECRET";

/**
 * Reads the bound secrets from SSM where SST v2 keeps them: the stage's own value at
 * `${SST_SSM_PREFIX}Secret/<name>/value`, else the app-wide fallback at
 * `/sst/<app>/.fallback/Secret/<name>/value` (both are what `bind` grants `ssm:GetParameters` on).
 * This is what `sst/node/config` does, but with our own SSM client: SST's helper bundles a second,
 * older AWS SDK with its own credential chain, which made each handler about 0.8 MB larger
 * (measured by `npm run bench`).
 */
export async function loadSstSecrets(
  env: Env,
  clientConfig: SSMClientConfig = {},
): Promise<DeviceCloudSecrets> {
  // SST marks each secret bound to the function in its environment; an unbound one may not be read.
  const names: SecretName[] = [
    ...DEVICE_CLOUD_SECRET_NAMES,
    ...(env.SST_Secret_value_SHARE_LINK_SECRET === undefined ? [] : ["SHARE_LINK_SECRET" as const]),
  ];
  return readSstSecrets(env, names, clientConfig);
}

/** Named SST secrets, each from the stage's value or else the app-wide fallback; throws for one unset. */
export async function readSstSecrets<Name extends string>(
  env: Env,
  names: readonly Name[],
  clientConfig: SSMClientConfig = {},
): Promise<Record<Name, string>> {
  const ssm = new SSMClient(clientConfig);
  const stagePath = (name: string) => `${env.SST_SSM_PREFIX ?? ""}Secret/${name}/value`;
  const fallbackPath = (name: string) => `/sst/${env.SST_APP}/.fallback/Secret/${name}/value`;
  // A few names: one GetParameters call each time (it takes up to ten).
  const read = async (paths: readonly string[]) => {
    const { Parameters = [] } = await ssm.send(
      new GetParametersCommand({ Names: [...paths], WithDecryption: true }),
    );
    return new Map(Parameters.map((parameter) => [parameter.Name, parameter.Value]));
  };
  try {
    const own = await read(names.map(stagePath));
    const unset = names.filter((name) => !own.get(stagePath(name)));
    const fallback = unset.length > 0 ? await read(unset.map(fallbackPath)) : new Map<string, string>();
    const value = (name: Name) => {
      const found = own.get(stagePath(name)) ?? fallback.get(fallbackPath(name));
      if (!found)
        throw new Error(
          `secret ${name} is not set: npx sst secrets set ${name} <value> --stage ${env.SST_STAGE}`,
        );
      return found;
    };
    return Object.fromEntries(names.map((name) => [name, value(name)])) as Record<Name, string>;
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
 * The environment a handler configures itself from. In a deployed stage (SST_APP set) with no
 * explicit DEVICE_CLOUD_ACCOUNTS, the one account "main" is made from the bound secrets, so that
 * address, user and password never sit in the template or the code. Elsewhere it is `env` itself.
 */
export async function withSecrets(
  env: Env,
  load: (env: Env) => Promise<DeviceCloudSecrets> = loadSstSecrets,
): Promise<Env> {
  if (!env.SST_APP || env.DEVICE_CLOUD_ACCOUNTS !== undefined) return env;
  const secrets = await load(env);
  const account = {
    id: "main",
    baseUrl: secrets.DEVICE_CLOUD_BASE_URL,
    username: secrets.DEVICE_CLOUD_USERNAME,
    passwordEnv: "DEVICE_CLOUD_PASSWORD",
    ...(env.RULES_FILE && { rulesFile: env.RULES_FILE }),
    // From the stage file (infra/stage-config.ts); checked with the account when the handler starts.
    ...(env.GPS_SPEED_UNIT && { gpsSpeedUnit: env.GPS_SPEED_UNIT }),
    ...(env.GPS_LOOKUP_BUDGET_MS && { gpsLookupBudgetMs: Number(env.GPS_LOOKUP_BUDGET_MS) }),
  };
  return {
    ...env,
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify([account]),
    DEVICE_CLOUD_PASSWORD: secrets.DEVICE_CLOUD_PASSWORD,
    ...(secrets.SHARE_LINK_SECRET && { SHARE_LINK_SECRET: secrets.SHARE_LINK_SECRET }),
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
