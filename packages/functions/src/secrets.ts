type Env = Readonly<Record<string, string | undefined>>;

/** The device-cloud secrets a deployed stage binds (see infra/Pipeline.ts). */
export interface DeviceCloudSecrets {
  DEVICE_CLOUD_BASE_URL: string;
  DEVICE_CLOUD_USERNAME: string;
  DEVICE_CLOUD_PASSWORD: string;
}

/**
 * SST reads bound secrets from SSM when `sst/node/config` is first imported (a top-level await), so
 * it is imported only in a deployed function, never in tests or the local mode.
 */
async function loadSstSecrets(): Promise<DeviceCloudSecrets> {
  const { Config } = await import("sst/node/config");
  const values = Config as unknown as Record<string, string | undefined>;
  const read = (name: keyof DeviceCloudSecrets) => {
    const value = values[name];
    if (!value)
      throw new Error(`secret ${name} is not set: npx sst secrets set ${name} <value> --stage <stage>`);
    return value;
  };
  return {
    DEVICE_CLOUD_BASE_URL: read("DEVICE_CLOUD_BASE_URL"),
    DEVICE_CLOUD_USERNAME: read("DEVICE_CLOUD_USERNAME"),
    DEVICE_CLOUD_PASSWORD: read("DEVICE_CLOUD_PASSWORD"),
  };
}

/**
 * The environment a handler configures itself from. In a deployed stage (SST_APP set) with no
 * explicit DEVICE_CLOUD_ACCOUNTS, the one account "main" is made from the bound secrets, so that
 * address, user and password never sit in the template or the code. Elsewhere it is `env` itself.
 */
export async function withSecrets(
  env: Env,
  load: () => Promise<DeviceCloudSecrets> = loadSstSecrets,
): Promise<Env> {
  if (!env.SST_APP || env.DEVICE_CLOUD_ACCOUNTS !== undefined) return env;
  const secrets = await load();
  const account = {
    id: "main",
    baseUrl: secrets.DEVICE_CLOUD_BASE_URL,
    username: secrets.DEVICE_CLOUD_USERNAME,
    passwordEnv: "DEVICE_CLOUD_PASSWORD",
    ...(env.RULES_FILE && { rulesFile: env.RULES_FILE }),
  };
  return {
    ...env,
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify([account]),
    DEVICE_CLOUD_PASSWORD: secrets.DEVICE_CLOUD_PASSWORD,
  };
}
