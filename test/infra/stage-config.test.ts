import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ConfigError, evidenceEnvSchema, parseEnv, pollerEnvSchema } from "@fleet-alerts/core/config";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as z from "zod";
import { loadStageConfig } from "../../infra/stage-config.js";
import { runScript } from "../support/run-script.js";

// A stage file is checked with the schemas the functions check their environment with: a value
// the function would refuse at start fails the synth instead, with the same message.
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "fleet-alerts-stage-"));
  await mkdir(join(root, "infra", "stages"), { recursive: true });
});
afterAll(() => rm(root, { recursive: true, force: true }));

let stages = 0;
async function stageError(config: Record<string, unknown>): Promise<string> {
  const stage = `stage${++stages}`;
  await writeFile(join(root, "infra", "stages", `${stage}.json`), JSON.stringify(config));
  try {
    loadStageConfig(stage, root);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`stage ${JSON.stringify(config)} was accepted`);
}

const ACCOUNTS = JSON.stringify([{ id: "north", baseUrl: "https://cloud.example.com", username: "u" }]);
const ENV = {
  TABLE_NAME: "table",
  ALERTS_TOPIC_ARN: "arn:aws:sns:eu-west-1:000000000000:alerts",
  EVIDENCE_QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/000000000000/evidence",
  CONFIRM_QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/000000000000/confirm",
  EVIDENCE_BUCKET: "evidence",
  EVIDENCE_STAGING_BUCKET: "staging",
  DEVICE_CLOUD_ACCOUNTS: ACCOUNTS,
};

/** The problem the function reports at start for this variable, as "NAME: message". */
function runtimeProblem(schema: z.ZodType, name: string, value: string): string {
  try {
    parseEnv(schema, { ...ENV, [name]: value });
  } catch (error) {
    const problem = (error as ConfigError).problems.find((text) => text.startsWith(`${name}: `));
    if (problem) return problem.slice(name.length + 2);
  }
  throw new Error(`the function accepts ${name}=${value}`);
}

const cases = [
  { field: "fleetTimeZone", value: "Europe/Berln", env: "FLEET_TIME_ZONE", schema: pollerEnvSchema },
  { field: "fleetUtcOffset", value: "+0190", env: "FLEET_UTC_OFFSET", schema: evidenceEnvSchema },
  { field: "fleetUtcOffset", value: "+1500", env: "FLEET_UTC_OFFSET", schema: evidenceEnvSchema },
  { field: "fleetUtcOffset", value: "0100", env: "FLEET_UTC_OFFSET", schema: evidenceEnvSchema },
  { field: "evidenceMaxWaitDays", value: 367, env: "EVIDENCE_MAX_WAIT_DAYS", schema: evidenceEnvSchema },
  { field: "evidenceMaxWaitDays", value: 0, env: "EVIDENCE_MAX_WAIT_DAYS", schema: evidenceEnvSchema },
];

describe("a stage file refuses what the functions refuse", () => {
  it.each(cases)("$field: $value fails with the function's message for $env", async (bad) => {
    const message = await stageError({ [bad.field]: bad.value });
    expect(message).toContain(`${bad.field}: ${runtimeProblem(bad.schema, bad.env, String(bad.value))}`);
  });

  it("refuses a Time-Stamp Authority URL with credentials in it, or not over HTTP(S)", async () => {
    const withCredentials = await stageError({
      timestampAuthorityUrl: "https://user:secret@tsa.example.com/",
    });
    expect(withCredentials).toContain("timestampAuthorityUrl: must not carry credentials");
    expect(withCredentials).not.toContain("secret");
    expect(await stageError({ timestampAuthorityUrl: "ftp://tsa.example.com/" })).toContain(
      "timestampAuthorityUrl:",
    );
    expect(await stageError({ sourceOrganization: " " })).toContain("sourceOrganization:");
  });

  it("refuses a GPS speed unit or lookup budget the accounts would refuse", async () => {
    expect(await stageError({ accounts: [{ id: "north", gpsSpeedUnit: "furlongs" }] })).toContain(
      "accounts.0.gpsSpeedUnit:",
    );
    expect(await stageError({ accounts: [{ id: "north", gpsLookupBudgetMs: 30_001 }] })).toContain(
      "accounts.0.gpsLookupBudgetMs:",
    );
    // Per account now: the stage-wide fields are gone.
    expect(await stageError({ gpsSpeedUnit: "mph" })).toContain("gpsSpeedUnit");
    expect(await stageError({ rulesFile: "config/rules.example.json" })).toContain("rulesFile");
  });

  it("lists at least one account, each id once, also as its secrets' names", async () => {
    expect(await stageError({ accounts: [] })).toContain("accounts:");
    expect(await stageError({ accounts: [{ id: "north" }, { id: "north" }] })).toContain(
      "accounts: account ids must differ, also upper-cased with '-' as '_' (their secrets' names): north",
    );
    expect(await stageError({ accounts: [{ id: "depot-1" }, { id: "DEPOT_1" }] })).toContain("DEPOT_1");
    expect(await stageError({ accounts: [{ id: "north/1" }] })).toContain("accounts.0.id:");
    await writeFile(
      join(root, "infra", "stages", "two.json"),
      JSON.stringify({
        accounts: [
          { id: "north", rulesFile: "rules/n.json" },
          { id: "south", gpsSpeedUnit: "mph" },
        ],
      }),
    );
    expect(loadStageConfig("two", root).accounts).toEqual([
      { id: "north", rulesFile: "rules/n.json", gpsSpeedUnit: "km/h", gpsLookupBudgetMs: 3000 },
      { id: "south", gpsSpeedUnit: "mph", gpsLookupBudgetMs: 3000 },
    ]);
    // A developer's stage without a file: one account, with the default rules.
    expect(loadStageConfig("absent", root).accounts).toEqual([
      { id: "fleet", gpsSpeedUnit: "km/h", gpsLookupBudgetMs: 3000 },
    ]);
  });

  it("takes only the latency modes the bench prices, and a slower schedule only without a chain", async () => {
    for (const value of [1, 1.5, 4, 30, 90])
      expect(await stageError({ pollEverySeconds: value })).toContain(
        "pollEverySeconds: Invalid option: expected one of 2|3|5|10|15|60",
      );
    // Each account's schedule starts the minute's chain: it must run every minute.
    expect(await stageError({ pollEverySeconds: 10, scheduleMinutes: 5 })).toContain(
      "scheduleMinutes: must be 1 with a pollEverySeconds under 60",
    );
    expect(loadStageConfig("absent", root).pollEverySeconds).toBe(60);
    for (const [stage, config] of Object.entries({
      fastest: { pollEverySeconds: 2 },
      hourly: { scheduleMinutes: 60 },
    })) {
      await writeFile(join(root, "infra", "stages", `${stage}.json`), JSON.stringify(config));
      expect(loadStageConfig(stage, root)).toMatchObject(config);
    }
  });

  it("runs four evidence jobs at once by default, and takes only what an SQS event source allows", async () => {
    expect(loadStageConfig("absent", root).evidenceConcurrency).toBe(4);
    expect(await stageError({ evidenceConcurrency: 1 })).toContain("evidenceConcurrency:");
    expect(await stageError({ evidenceConcurrency: 1001 })).toContain("evidenceConcurrency:");
    expect(await stageError({ evidenceConcurrency: 2.5 })).toContain("evidenceConcurrency:");
  });

  it("passes the UTC offset through in the form it was written", async () => {
    await writeFile(
      join(root, "infra", "stages", "offsets.json"),
      JSON.stringify({ fleetUtcOffset: "-03:30" }),
    );
    expect(loadStageConfig("offsets", root).fleetUtcOffset).toBe("-03:30");
    expect(loadStageConfig("absent", root)).toMatchObject({ fleetUtcOffset: "+0000", fleetTimeZone: "UTC" });
    // And the function reads that form as the same offset.
    expect(parseEnv(evidenceEnvSchema, { ...ENV, FLEET_UTC_OFFSET: "-03:30" }).FLEET_UTC_OFFSET).toBe(-210);
  });
});

describe("the incident pages and escalation", () => {
  it("defaults to 72-hour links, a 30-day cap, no escalation levels and a 20/40 throttle", async () => {
    expect(loadStageConfig("absent", root)).toMatchObject({
      shareLinkHours: 72,
      shareMaxDays: 30,
      escalation: { levels: [] },
      incidentThrottle: { rateLimit: 20, burstLimit: 40 },
    });
    expect(loadStageConfig("absent", root).publicBaseUrl).toBeUndefined();
  });

  it("refuses a base URL that is not plain https, links over 30 days, and a fourth level", async () => {
    expect(await stageError({ publicBaseUrl: "http://alerts.example.com" })).toContain(
      "publicBaseUrl: must be an https URL",
    );
    expect(await stageError({ publicBaseUrl: "https://alerts.example.com/?a=1" })).toContain(
      "publicBaseUrl: must not carry credentials, a query or a fragment",
    );
    expect(await stageError({ shareLinkHours: 721 })).toContain("shareLinkHours:");
    expect(await stageError({ publicBaseUrl: `https://${"a".repeat(60)}.example` })).toContain(
      "publicBaseUrl: must be at most 62 characters",
    );
    const level = { emails: ["ops@example.com"] };
    expect(await stageError({ escalation: { levels: [level, level, level, level] } })).toContain(
      "escalation.levels:",
    );
    expect(await stageError({ escalation: { levels: [{ sms: ["0151"] }] } })).toContain(
      "escalation.levels.0.sms.0: must be an E.164 number",
    );
    expect(
      await stageError({ customDomain: { domainName: "alerts.example.com", certificateArn: "cert" } }),
    ).toContain("customDomain.certificateArn:");
  });

  it("drops a trailing slash from the base URL, so links never have two", async () => {
    await writeFile(
      join(root, "infra", "stages", "slash.json"),
      JSON.stringify({ publicBaseUrl: "https://alerts.example.com/fleet/" }),
    );
    expect(loadStageConfig("slash", root).publicBaseUrl).toBe("https://alerts.example.com/fleet");
  });
});

describe("npm run synth", () => {
  it("fails on a stage value the function would refuse, with the function's message", async () => {
    const stage = "badruntime";
    const file = `infra/stages/${stage}.json`;
    await writeFile(file, JSON.stringify({ fleetUtcOffset: "+0190", evidenceMaxWaitDays: 367 }));
    try {
      const { code, output } = await runScript("scripts/synth.ts", [], {
        SST_STAGE: stage,
        SYNTH_OUTDIR: `.build/synth-${stage}`,
      });
      expect(code).not.toBe(0);
      expect(output).toContain(
        `fleetUtcOffset: ${runtimeProblem(evidenceEnvSchema, "FLEET_UTC_OFFSET", "+0190")}`,
      );
      expect(output).toContain("fleetUtcOffset: must have minutes below 60");
      expect(output).toContain(
        `evidenceMaxWaitDays: ${runtimeProblem(evidenceEnvSchema, "EVIDENCE_MAX_WAIT_DAYS", "367")}`,
      );
    } finally {
      await rm(file, { force: true });
    }
  });
});
