import { once } from "node:events";
import { mkdtemp, rm, stat } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SubscribeCommand, UnsubscribeCommand } from "@aws-sdk/client-sns";
import { PurgeQueueCommand, SendMessageCommand } from "@aws-sdk/client-sqs";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { hashPassword } from "@fleet-alerts/core/devicecloud";
import { writeLocalEndpoints } from "@fleet-alerts/functions/local-endpoints";
import { writeLocalSecrets } from "@fleet-alerts/functions/local-secrets";
import { type Simulator, start } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emulatedResources } from "../../../packages/local/src/endpoints-file.js";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { fleetAlerts } from "./run.js";

// The passwords of the two accounts: no output of doctor may carry them or their hashes.
const PASSWORDS = { north: "north-Pa55word-7d1c", south: "south-Pa55word-91fe" };
const SECRETS = Object.values(PASSWORDS).flatMap((password) => [password, hashPassword(password)]);

let emulators: Emulators;
let simulator: Simulator;
let incidentPages: Server;
let folder: string;
let endpointsFile: string;
let removeEndpoints: () => Promise<void>;

beforeAll(async () => {
  emulators = await startEmulators();
  simulator = await start({
    seed: 33,
    devices: 2,
    historyHours: 1,
    accounts: Object.entries(PASSWORDS).map(([username, password]) => ({ username, password, admin: false })),
  });
  // The incident app answers 404 to a path that is no link; doctor only asks that it answers.
  incidentPages = createServer((_request, response) => response.writeHead(404).end());
  incidentPages.listen(0, "127.0.0.1");
  await once(incidentPages, "listening");
  folder = await mkdtemp(join(tmpdir(), "doctor-"));
  endpointsFile = join(folder, "endpoints.json");
  removeEndpoints = await writeEndpoints(endpointsFile);
  for (const account of ["north", "south"]) await pollCaughtUp(account, Date.now());
});

afterAll(async () => {
  await removeEndpoints?.();
  await rm(folder, { recursive: true, force: true });
  incidentPages?.close();
  await simulator?.close();
  await emulators?.close();
});

/** The endpoints file as `npm start` writes it; this test's process stands for the local mode's (its pid is checked). */
function writeEndpoints(file: string, secretsFile?: string) {
  return writeLocalEndpoints(file, {
    ...emulatedResources(emulators),
    incidentBaseUrl: `http://127.0.0.1:${(incidentPages.address() as AddressInfo).port}`,
    evidenceDir: folder,
    accounts: ["north", "south"],
    ...(secretsFile && { secretsFile }),
    clock: { realMs: Date.now(), simulatedMs: Date.now(), speed: 1 },
  });
}

/** What a poll leaves: the cursor, and the lock item's time of the last catch-up (cursor/account-lock.ts). */
async function pollCaughtUp(account: string, atMs: number): Promise<void> {
  const { documents } = emulators.clients;
  const put = (Item: Record<string, unknown>) =>
    documents.send(new PutCommand({ TableName: emulators.tableName, Item }));
  await put({
    pk: `ACCOUNT#${account}`,
    sk: "CURSOR",
    serialno: "1000000",
    updatedAt: new Date(atMs).toISOString(),
  });
  await put({ pk: `ACCOUNT#${account}`, sk: "LOCK", caughtUpAtMs: atMs });
}

/** The accounts' secrets as the shell running doctor holds them; `undefined` leaves one out. */
function secretsEnv(changes: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return {
    DEVICE_CLOUD_ACCOUNTS: undefined,
    ...Object.fromEntries(
      Object.entries(PASSWORDS).flatMap(([account, password]) => {
        const prefix = `DEVICE_CLOUD_${account.toUpperCase()}_`;
        return [
          [`${prefix}BASE_URL`, simulator.url],
          [`${prefix}USERNAME`, account],
          [`${prefix}PASSWORD`, password],
        ];
      }),
    ),
    ...changes,
  };
}

interface JsonReport {
  stage: string;
  ok: boolean;
  checks: Array<{ name: string; ok: boolean; skipped?: true; detail: string; remedy?: string }>;
}

/** `doctor --local <file> --json`, its report parsed; asserts no secret in any output. */
async function doctor(env = secretsEnv(), ...args: string[]) {
  const run = await fleetAlerts(
    ["doctor", "--local", ...(args[0] === "--local" ? [] : [endpointsFile]), ...args],
    {
      // The SDK warns on Node.js 20 that its 2027 releases will need 22: true, and not this test's subject.
      env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", ...env },
    },
  );
  for (const secret of SECRETS) expect(run.stdout + run.stderr).not.toContain(secret);
  return run;
}

async function failedChecks(env = secretsEnv()) {
  const run = await doctor(env, "--json");
  expect(run.stderr).toBe("");
  const report = JSON.parse(run.stdout) as JsonReport;
  expect(run.code).toBe(report.ok ? 0 : 1);
  return { report, failed: report.checks.filter((check) => !check.ok) };
}

describe("fleet-alerts doctor --local", () => {
  it("passes a healthy local stage, one line per check, and exits 0", async () => {
    const run = await doctor();
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("stage local:");
    expect(lines).toContainEqual(
      expect.stringMatching(/^✔ account north: secrets: set, and accepted by the device cloud \(\d+ ms\)$/),
    );
    expect(lines).toContainEqual(expect.stringMatching(/^✔ account south: last poll: caught up \d+ s ago, /));
    expect(lines).toContain("✔ schedules: 2 enabled: poll loop north, poll loop south");
    expect(lines).toContain("✔ dead letters: evidence-dlq: empty");
    expect(lines).toContain("✔ subscriptions: alerts: 1 confirmed");
    expect(lines).toContainEqual(expect.stringMatching(/^– evidence bucket: Object Lock: not checked: /));
    expect(lines).toContain("✔ Time-Stamp Authority: none configured: claim packs are not stamped");
    expect(lines).toContainEqual(
      expect.stringMatching(/^✔ incident pages: http:\/\/127\.0\.0\.1:\d+ answered HTTP 404 in \d+ ms$/),
    );
    expect(lines.at(-1)).toBe("all 13 checks passed");
  });

  it("prints { stage, ok, checks } with --json", async () => {
    const { report, failed } = await failedChecks();
    expect(report).toMatchObject({ stage: "local", ok: true });
    expect(failed).toEqual([]);
    expect(report.checks.map((check) => check.name)).toEqual([
      "account north: secrets",
      "account north: last poll",
      "account south: secrets",
      "account south: last poll",
      "schedules",
      "dead letters: evidence-dlq",
      "dead letters: webhook-dlq",
      "subscriptions: alerts",
      "subscriptions: escalation",
      "subscriptions: ops",
      "evidence bucket: Object Lock",
      "Time-Stamp Authority",
      "incident pages",
    ]);
  });

  it("finds a missing secret, names it, says how to set it, and exits 1", async () => {
    const run = await doctor(secretsEnv({ DEVICE_CLOUD_SOUTH_PASSWORD: undefined }));
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "✖ account south: secrets: not set: DEVICE_CLOUD_SOUTH_PASSWORD\n" +
        "    → export DEVICE_CLOUD_SOUTH_PASSWORD=… in the shell that runs doctor\n",
    );
    expect(run.stdout.trimEnd().split("\n").at(-1)).toBe("1 of 13 checks failed");
  });

  it("finds secrets the device cloud refuses, without showing them", async () => {
    const { failed } = await failedChecks(secretsEnv({ DEVICE_CLOUD_NORTH_PASSWORD: PASSWORDS.south }));
    expect(failed).toEqual([
      expect.objectContaining({
        name: "account north: secrets",
        detail: expect.stringMatching(/^set, but the device cloud refused them: .*HTTP 401/),
        remedy: expect.stringContaining("export DEVICE_CLOUD_NORTH_PASSWORD=…"),
      }),
    ]);
  });

  it("finds an unconfirmed subscription", async () => {
    const { sns } = emulators.clients;
    const { SubscriptionArn } = await sns.send(
      new SubscribeCommand({
        TopicArn: emulators.opsTopicArn,
        Protocol: "email",
        Endpoint: "ops@example.test",
      }),
    );
    try {
      const { failed } = await failedChecks();
      expect(failed).toEqual([
        {
          name: "subscriptions: ops",
          ok: false,
          detail: "1 of 1 pending confirmation",
          remedy: expect.stringContaining(
            `aws sns list-subscriptions-by-topic --topic-arn ${emulators.opsTopicArn}`,
          ),
        },
      ]);
      // People's addresses are not shown.
      expect(JSON.stringify(failed)).not.toContain("ops@example.test");
    } finally {
      await sns.send(new UnsubscribeCommand({ SubscriptionArn }));
    }
  });

  it("finds a job in a dead-letter queue, with the redrive", async () => {
    const { sqs } = emulators.clients;
    await sqs.send(new SendMessageCommand({ QueueUrl: emulators.queues.webhookDlq, MessageBody: "{}" }));
    try {
      const { failed } = await failedChecks();
      expect(failed).toEqual([
        {
          name: "dead letters: webhook-dlq",
          ok: false,
          detail: "1 message waiting",
          remedy: expect.stringMatching(
            /aws sqs start-message-move-task --source-arn arn:aws:sqs:[^ ]+:webhook-dlq$/,
          ),
        },
      ]);
    } finally {
      await sqs.send(new PurgeQueueCommand({ QueueUrl: emulators.queues.webhookDlq }));
    }
  });

  it("finds a stale poll, beyond the lag threshold", async () => {
    await pollCaughtUp("north", Date.now() - 2 * 3_600_000);
    try {
      const { failed } = await failedChecks();
      expect(failed).toEqual([
        {
          name: "account north: last poll",
          ok: false,
          detail: expect.stringMatching(/^caught up 2 h ago, .*; over the lag threshold of 600 s$/),
          remedy: expect.stringContaining("docs/operate.md"),
        },
      ]);
    } finally {
      await pollCaughtUp("north", Date.now());
    }
  });

  it("checks the simulated fleets' credentials in the local mode's secrets file, readable by its user alone", async () => {
    const secretsFile = join(folder, "secrets.json");
    const withSecrets = join(folder, "endpoints-with-secrets.json");
    // Only north's: south's are the shell's, which holds none.
    const removeSecrets = await writeLocalSecrets(secretsFile, {
      north: { baseUrl: simulator.url, username: "north", password: PASSWORDS.north },
    });
    const remove = await writeEndpoints(withSecrets, secretsFile);
    try {
      expect((await stat(secretsFile)).mode & 0o777).toBe(0o600);
      const noShell = Object.fromEntries(Object.keys(secretsEnv()).map((name) => [name, undefined]));
      const run = await doctor(noShell, "--local", withSecrets, "--json");
      const failed = (JSON.parse(run.stdout) as JsonReport).checks.filter((check) => !check.ok);
      expect(run.code).toBe(1);
      expect(failed).toEqual([
        expect.objectContaining({
          name: "account south: secrets",
          detail:
            "not set: DEVICE_CLOUD_SOUTH_BASE_URL, DEVICE_CLOUD_SOUTH_USERNAME, DEVICE_CLOUD_SOUTH_PASSWORD",
        }),
      ]);
    } finally {
      await remove();
      await removeSecrets();
    }
  });

  it("wants one stage: --stage or --local, not both", async () => {
    const run = await doctor(secretsEnv(), "--stage", "prod");
    expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(run.stderr).toContain("say which stage: --stage <name> for a deployed one, or --local");
  });
});
