import { deviceCloudSecretNames } from "../config/poller-config.js";
import { hashPassword } from "../devicecloud/credentials.js";
import { redactSecrets } from "../devicecloud/secret.js";
import { type Check, fail, pass, settle } from "./check.js";
import type { DeviceCloudLogin, SecretSource } from "./ports.js";

/**
 * Per account: its secrets are all set, and the device cloud accepts them (one cheap call). The
 * check names missing secrets and never shows a value; a reason from the call is scrubbed of the
 * password and its hash all the same, should a service echo them.
 */
export function checkAccountSecrets(
  account: string,
  secrets: SecretSource,
  login: DeviceCloudLogin,
  timeoutMs: number,
): Promise<Check[]> {
  const name = `account ${account}: secrets`;
  return settle(
    name,
    async () => {
      const read = await secrets.read(account);
      if (!("connection" in read)) {
        const missing = read.missing;
        return fail(
          name,
          `not set: ${missing.join(", ")}`,
          missing.map((secret) => secrets.howToSet(secret)).join("; "),
        );
      }
      const outcome = await login.check(read.connection, timeoutMs);
      if (outcome.accepted) return pass(name, `set, and accepted by the device cloud (${outcome.ms} ms)`);
      const { password } = read.connection;
      const reason = redactSecrets(outcome.reason, [password, hashPassword(password)]);
      const named = deviceCloudSecretNames(account);
      if (outcome.refused) {
        const setAgain = [named.username, named.password].map((secret) => secrets.howToSet(secret));
        return fail(
          name,
          `set, but the device cloud refused them: ${reason}`,
          `check the user name and password with the device cloud's operator, then set them again: ${setAgain.join("; ")}`,
        );
      }
      return fail(
        name,
        `set, but the device cloud could not be asked: ${reason}`,
        `check the device cloud's status and the address in ${named.baseUrl}, then run doctor again`,
      );
    },
    "check that this shell may read the stage's secrets (AWS credentials and region), then run doctor again",
  );
}
