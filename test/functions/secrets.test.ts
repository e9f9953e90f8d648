import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { accountsSchema } from "@fleet-alerts/core/config";
import { afterEach, describe, expect, it } from "vitest";
import { loadSstSecrets, withSecrets } from "../../packages/functions/src/secrets.js";

const SECRETS = {
  DEVICE_CLOUD_BASE_URL: "https://cloud.example",
  DEVICE_CLOUD_USERNAME: "fleet",
  DEVICE_CLOUD_PASSWORD: "pw",
};

// How the account is made from the secrets; the loader is passed in (it is tested below).
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

  it("gives the account the stage's GPS speed unit and lookup budget", async () => {
    const env = await withSecrets(
      { SST_APP: "fleet-alerts", GPS_SPEED_UNIT: "mph", GPS_LOOKUP_BUDGET_MS: "0" },
      async () => SECRETS,
    );
    const [account] = accountsSchema.parse(JSON.parse(env.DEVICE_CLOUD_ACCOUNTS ?? ""));
    expect(account).toMatchObject({ id: "main", gpsSpeedUnit: "mph", gpsLookupBudgetMs: 0 });
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

// No emulator here offers SSM: a loopback server answers GetParameters in the SSM JSON protocol
// from a map of stored parameters, so the real SSM client (configured as in Lambda but for its endpoint) is under test.
describe("reading the bound secrets from SSM, where SST v2 keeps them", () => {
  const ENV = { SST_APP: "fleet-alerts", SST_STAGE: "prod", SST_SSM_PREFIX: "/sst/fleet-alerts/prod/" };
  const stage = (name: string) => `/sst/fleet-alerts/prod/Secret/${name}/value`;
  const fallback = (name: string) => `/sst/fleet-alerts/.fallback/Secret/${name}/value`;
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  async function ssmHolding(stored: Record<string, string>) {
    const requests: { target: string; names: string[]; decrypt: boolean }[] = [];
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
          Names: string[];
          WithDecryption?: boolean;
        };
        requests.push({
          target: String(request.headers["x-amz-target"]),
          names: body.Names,
          decrypt: body.WithDecryption === true,
        });
        response.writeHead(200, { "content-type": "application/x-amz-json-1.1" });
        response.end(
          JSON.stringify({
            Parameters: body.Names.filter((name) => name in stored).map((name) => ({
              Name: name,
              Type: "SecureString",
              Value: stored[name],
              Version: 1,
            })),
            InvalidParameters: body.Names.filter((name) => !(name in stored)),
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    stop = () => server.close();
    const ssm = {
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      region: "eu-west-1",
      credentials: { accessKeyId: "test", secretAccessKey: "test" },
    };
    return { ssm, requests };
  }

  it("reads the stage's values in one decrypted GetParameters", async () => {
    const { ssm, requests } = await ssmHolding({
      [stage("DEVICE_CLOUD_BASE_URL")]: SECRETS.DEVICE_CLOUD_BASE_URL,
      [stage("DEVICE_CLOUD_USERNAME")]: SECRETS.DEVICE_CLOUD_USERNAME,
      [stage("DEVICE_CLOUD_PASSWORD")]: SECRETS.DEVICE_CLOUD_PASSWORD,
    });
    expect(await loadSstSecrets(ENV, ssm)).toEqual(SECRETS);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.target).toBe("AmazonSSM.GetParameters");
    expect(requests[0]?.decrypt).toBe(true);
  });

  it("takes the app-wide fallback for what the stage does not set, as SST does", async () => {
    const { ssm, requests } = await ssmHolding({
      [stage("DEVICE_CLOUD_BASE_URL")]: SECRETS.DEVICE_CLOUD_BASE_URL,
      [stage("DEVICE_CLOUD_USERNAME")]: SECRETS.DEVICE_CLOUD_USERNAME,
      [fallback("DEVICE_CLOUD_PASSWORD")]: SECRETS.DEVICE_CLOUD_PASSWORD,
      [fallback("DEVICE_CLOUD_USERNAME")]: "not-this-one",
    });
    expect(await loadSstSecrets(ENV, ssm)).toEqual(SECRETS);
    expect(requests[1]?.names).toEqual([fallback("DEVICE_CLOUD_PASSWORD")]);
  });

  it("names a secret set nowhere, and how to set it, without showing any value", async () => {
    const { ssm } = await ssmHolding({
      [stage("DEVICE_CLOUD_BASE_URL")]: SECRETS.DEVICE_CLOUD_BASE_URL,
      [stage("DEVICE_CLOUD_PASSWORD")]: SECRETS.DEVICE_CLOUD_PASSWORD,
    });
    const failure = loadSstSecrets(ENV, ssm);
    await expect(failure).rejects.toThrow(
      "secret DEVICE_CLOUD_USERNAME is not set: npx sst secrets set DEVICE_CLOUD_USERNAME <value> --stage prod",
    );
    await expect(failure).rejects.not.toThrow(SECRETS.DEVICE_CLOUD_PASSWORD);
  });
});
