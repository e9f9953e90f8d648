import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ssmSecrets } from "../../../packages/functions/src/cli/ssm-secrets.js";

// No emulator of the project has SSM: a stand-in answers GetParameters as SSM does (as in secrets.test.ts).
const STORED: Record<string, string> = {
  "/sst/fleet-alerts/prod/Secret/DEVICE_CLOUD_NORTH_BASE_URL/value": "https://north.example",
  "/sst/fleet-alerts/prod/Secret/DEVICE_CLOUD_NORTH_USERNAME/value": "fleet-n",
  "/sst/fleet-alerts/prod/Secret/DEVICE_CLOUD_NORTH_PASSWORD/value": "pw-north",
  // South's address and user are the app-wide fallback's; its password is set nowhere.
  "/sst/fleet-alerts/.fallback/Secret/DEVICE_CLOUD_SOUTH_BASE_URL/value": "https://south.example",
  "/sst/fleet-alerts/.fallback/Secret/DEVICE_CLOUD_SOUTH_USERNAME/value": "fleet-s",
};

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", () => {
    const { Names } = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { Names: string[] };
    response.writeHead(200, { "content-type": "application/x-amz-json-1.1" });
    response.end(
      JSON.stringify({
        Parameters: Names.filter((name) => name in STORED).map((name) => ({
          Name: name,
          Type: "SecureString",
          Value: STORED[name],
        })),
        InvalidParameters: Names.filter((name) => !(name in STORED)),
      }),
    );
  });
});
let endpoint: string;
beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

describe("a deployed stage's account secrets, for doctor", () => {
  const secrets = () =>
    ssmSecrets(
      "prod",
      { SST_APP: "fleet-alerts", SST_SSM_PREFIX: "/sst/fleet-alerts/prod/" },
      { endpoint, region: "eu-west-1", credentials: { accessKeyId: "test", secretAccessKey: "test" } },
    );

  it("gives the connection of an account whose secrets are all set, the stage's or the fallback's", async () => {
    expect(await secrets().read("north")).toEqual({
      missing: [],
      connection: { baseUrl: "https://north.example", username: "fleet-n", password: "pw-north" },
    });
  });

  it("names the missing ones, and how to set each on the stage", async () => {
    const source = secrets();
    expect(await source.read("south")).toEqual({ missing: ["DEVICE_CLOUD_SOUTH_PASSWORD"] });
    expect(source.howToSet("DEVICE_CLOUD_SOUTH_PASSWORD")).toBe(
      "npx sst secrets set DEVICE_CLOUD_SOUTH_PASSWORD <value> --stage prod",
    );
  });
});
