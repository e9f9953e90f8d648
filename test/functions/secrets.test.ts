import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { accountsSchema } from "@fleet-alerts/core/config";
import { afterEach, describe, expect, it } from "vitest";
import { buildRuntime } from "../../packages/functions/src/runtime.js";
import { readSstSecrets, withSecrets } from "../../packages/functions/src/secrets.js";

const SECRETS: Record<string, string> = {
  DEVICE_CLOUD_NORTH_BASE_URL: "https://north.example",
  DEVICE_CLOUD_NORTH_USERNAME: "fleet-n",
  DEVICE_CLOUD_NORTH_PASSWORD: "pw-n",
  DEVICE_CLOUD_DEPOT_SOUTH_BASE_URL: "https://south.example",
  DEVICE_CLOUD_DEPOT_SOUTH_USERNAME: "fleet-s",
  DEVICE_CLOUD_DEPOT_SOUTH_PASSWORD: "pw-s",
};

// The accounts file infra/functions.ts bundles.
async function accountsFile() {
  const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-accounts-"));
  const file = join(folder, "accounts.json");
  await writeFile(
    file,
    JSON.stringify([
      { id: "north", rulesFile: "rules/north.json", gpsSpeedUnit: "mph", gpsLookupBudgetMs: 0 },
      { id: "depot-south" },
    ]),
  );
  return { SST_APP: "fleet-alerts", DEVICE_CLOUD_ACCOUNTS_FILE: file };
}

// How the accounts are made from the file and the secrets; the loader is passed in (tested below).
describe("secrets of a deployed stage", () => {
  it("makes each named account from the accounts file and its own secrets, and reads no other's", async () => {
    const asked: string[][] = [];
    const load = async (_env: unknown, names: readonly string[]) => {
      asked.push([...names]);
      return Object.fromEntries(names.map((name) => [name, SECRETS[name] ?? ""]));
    };
    const env = await withSecrets(await accountsFile(), ["north"], load);
    expect(asked).toEqual([
      ["DEVICE_CLOUD_NORTH_BASE_URL", "DEVICE_CLOUD_NORTH_USERNAME", "DEVICE_CLOUD_NORTH_PASSWORD"],
    ]);
    const accounts = accountsSchema.parse(JSON.parse(env.DEVICE_CLOUD_ACCOUNTS ?? ""));
    expect(accounts).toEqual([
      expect.objectContaining({
        id: "north",
        baseUrl: "https://north.example",
        username: "fleet-n",
        passwordEnv: "DEVICE_CLOUD_NORTH_PASSWORD",
        rulesFile: "rules/north.json",
        gpsSpeedUnit: "mph",
        gpsLookupBudgetMs: 0,
      }),
    ]);
    expect(env.DEVICE_CLOUD_NORTH_PASSWORD).toBe("pw-n");
    expect(env.DEVICE_CLOUD_DEPOT_SOUTH_PASSWORD).toBeUndefined();
  });

  it("makes every account when none is named; an unknown one is an error", async () => {
    const load = async (_env: unknown, names: readonly string[]) =>
      Object.fromEntries(names.map((name) => [name, SECRETS[name] ?? ""]));
    const base = await accountsFile();
    const env = await withSecrets(base, undefined, load);
    const accounts = accountsSchema.parse(JSON.parse(env.DEVICE_CLOUD_ACCOUNTS ?? ""));
    expect(accounts.map((account) => [account.id, account.passwordEnv])).toEqual([
      ["north", "DEVICE_CLOUD_NORTH_PASSWORD"],
      ["depot-south", "DEVICE_CLOUD_DEPOT_SOUTH_PASSWORD"],
    ]);
    await expect(withSecrets(base, ["west"], load)).rejects.toThrow("unknown account west");
  });

  it("leaves an explicit configuration, and anything outside SST, as it is", async () => {
    const load = async () => {
      throw new Error("must not be called");
    };
    const explicit = { SST_APP: "fleet-alerts", DEVICE_CLOUD_ACCOUNTS: "[]" };
    expect(await withSecrets(explicit, undefined, load)).toBe(explicit);
    const local = { TABLE_NAME: "t" };
    expect(await withSecrets(local, ["north"], load)).toBe(local);
  });
});

// No emulator here offers SSM: a loopback server answers GetParameters in the SSM JSON protocol
// from a map of stored parameters, so the real SSM client (configured as in Lambda but for its endpoint) is under test.
describe("reading the bound secrets from SSM, where SST v2 keeps them", () => {
  const ENV = { SST_APP: "fleet-alerts", SST_STAGE: "prod", SST_SSM_PREFIX: "/sst/fleet-alerts/prod/" };
  const stage = (name: string) => `/sst/fleet-alerts/prod/Secret/${name}/value`;
  const fallback = (name: string) => `/sst/fleet-alerts/.fallback/Secret/${name}/value`;
  const NAMES = Object.keys(SECRETS);
  const NORTH = NAMES.filter((name) => name.startsWith("DEVICE_CLOUD_NORTH_"));
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

  it("reads the stage's values in decrypted GetParameters calls of ten names at most", async () => {
    const { ssm, requests } = await ssmHolding(
      Object.fromEntries(Object.entries(SECRETS).map(([name, value]) => [stage(name), value])),
    );
    expect(await readSstSecrets(ENV, NAMES, ssm)).toEqual(SECRETS);
    expect(requests).toHaveLength(1);
    expect(requests[0]?.target).toBe("AmazonSSM.GetParameters");
    expect(requests[0]?.decrypt).toBe(true);
    const many = Array.from({ length: 23 }, (_, index) => `DEVICE_CLOUD_A${index}_PASSWORD`);
    const { ssm: ssmOfMany, requests: manyRequests } = await ssmHolding(
      Object.fromEntries(many.map((name) => [stage(name), "x"])),
    );
    expect(Object.keys(await readSstSecrets(ENV, many, ssmOfMany))).toEqual(many);
    expect(manyRequests.map((request) => request.names.length)).toEqual([10, 10, 3]);
  });

  it("takes the app-wide fallback for what the stage does not set, as SST does", async () => {
    const { ssm, requests } = await ssmHolding({
      [stage("DEVICE_CLOUD_NORTH_BASE_URL")]: "https://north.example",
      [stage("DEVICE_CLOUD_NORTH_USERNAME")]: "fleet-n",
      [fallback("DEVICE_CLOUD_NORTH_PASSWORD")]: "pw-n",
      [fallback("DEVICE_CLOUD_NORTH_USERNAME")]: "not-this-one",
    });
    expect(await readSstSecrets(ENV, NORTH, ssm)).toEqual({
      DEVICE_CLOUD_NORTH_BASE_URL: "https://north.example",
      DEVICE_CLOUD_NORTH_USERNAME: "fleet-n",
      DEVICE_CLOUD_NORTH_PASSWORD: "pw-n",
    });
    expect(requests[1]?.names).toEqual([fallback("DEVICE_CLOUD_NORTH_PASSWORD")]);
  });

  it("names a secret set nowhere, and how to set it, without showing any value", async () => {
    const { ssm } = await ssmHolding({
      [stage("DEVICE_CLOUD_NORTH_BASE_URL")]: "https://north.example",
      [stage("DEVICE_CLOUD_NORTH_PASSWORD")]: "pw-n",
    });
    const failure = readSstSecrets(ENV, NORTH, ssm);
    await expect(failure).rejects.toThrow(
      "secret DEVICE_CLOUD_NORTH_USERNAME is not set: npx sst secrets set DEVICE_CLOUD_NORTH_USERNAME <value> --stage prod",
    );
    await expect(failure).rejects.not.toThrow("pw-n");
  });
});

// A schedule's runtime holds its one account; the groups file names every account of the stage.
describe("a deployed poller's runtime of one account", () => {
  const load = async (_env: unknown, names: readonly string[]) =>
    Object.fromEntries(names.map((name) => [name, SECRETS[name] ?? ""]));
  const stage = async (groups: object[]) => {
    const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-stage-"));
    const accounts = join(folder, "accounts.json");
    await writeFile(accounts, JSON.stringify([{ id: "north" }, { id: "depot-south" }]));
    const groupsFile = join(folder, "groups.json");
    await writeFile(groupsFile, JSON.stringify({ groups }));
    return {
      SST_APP: "fleet-alerts",
      DEVICE_CLOUD_ACCOUNTS_FILE: accounts,
      GROUPS_FILE: groupsFile,
      TABLE_NAME: "t",
      ALERTS_TOPIC_ARN: "arn:aws:sns:eu-west-1:123456789012:alerts",
      EVIDENCE_QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/evidence",
      CONFIRM_QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/confirm",
      AWS_REGION: "eu-west-1",
    };
  };
  const depots = [
    { name: "north-depot", email: ["n@example.com"], select: { accounts: ["north"] } },
    { name: "south-depot", email: ["s@example.com"], select: { accounts: ["depot-south"] } },
  ];

  it("checks the groups file against every account of the stage, not only its own", async () => {
    const runtime = await buildRuntime(await withSecrets(await stage(depots), ["north"], load));
    expect(runtime.pollers.map((poller) => poller.settings.account)).toEqual(["north"]);
  });

  it("refuses a groups file that leaves another account's critical rule unheard", async () => {
    const env = await withSecrets(await stage(depots.slice(0, 1)), ["north"], load);
    await expect(buildRuntime(env)).rejects.toThrow(/account "depot-south" reaches no group/);
  });
});
