import type { SSMClientConfig } from "@aws-sdk/client-ssm";
import { deviceCloudSecretNames } from "@fleet-alerts/core/config";
import type { SecretSource } from "@fleet-alerts/core/doctor";
import { findSstSecrets } from "../secrets.js";

type Env = Readonly<Record<string, string | undefined>>;

/**
 * A deployed stage's account secrets in SSM, as its functions read them (secrets.ts): the stage's
 * value, else the app-wide fallback.
 */
export function ssmSecrets(stage: string, env: Env, clientConfig: SSMClientConfig = {}): SecretSource {
  return {
    async read(account) {
      const names = Object.values(deviceCloudSecretNames(account));
      const found = await findSstSecrets(env, names, clientConfig);
      const [baseUrl, username, password] = names.map((name) => found.get(name));
      if (baseUrl !== undefined && username !== undefined && password !== undefined)
        return { missing: [], connection: { baseUrl, username, password } };
      return { missing: names.filter((name) => !found.has(name)) };
    },
    howToSet: (name) => `npx sst secrets set ${name} <value> --stage ${stage}`,
  };
}
