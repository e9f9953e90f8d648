import { describe, expect, it } from "vitest";
import { withSecrets } from "../../packages/functions/src/secrets.js";

const SECRETS = {
  DEVICE_CLOUD_BASE_URL: "https://cloud.example",
  DEVICE_CLOUD_USERNAME: "fleet",
  DEVICE_CLOUD_PASSWORD: "pw",
};

// SST's secret loader reads SSM, which no emulator here offers: the loader is passed in instead.
describe("secrets of a deployed stage", () => {
  it("makes the account from the bound secrets", async () => {
    const env = await withSecrets({ SST_APP: "fleet-alerts", RULES_FILE: "rules.json" }, async () => SECRETS);
    expect(JSON.parse(env.DEVICE_CLOUD_ACCOUNTS ?? "")).toEqual([
      {
        id: "main",
        baseUrl: "https://cloud.example",
        username: "fleet",
        passwordEnv: "DEVICE_CLOUD_PASSWORD",
        rulesFile: "rules.json",
      },
    ]);
    expect(env.DEVICE_CLOUD_PASSWORD).toBe("pw");
  });

  it("leaves an explicit configuration, and anything outside SST, as it is", async () => {
    const load = async () => {
      throw new Error("must not be called");
    };
    const explicit = { SST_APP: "fleet-alerts", DEVICE_CLOUD_ACCOUNTS: "[]" };
    expect(await withSecrets(explicit, load)).toBe(explicit);
    const local = { TABLE_NAME: "t" };
    expect(await withSecrets(local, load)).toBe(local);
  });
});
