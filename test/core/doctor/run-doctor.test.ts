import { hashPassword } from "@fleet-alerts/core/devicecloud";
import {
  type DoctorPorts,
  type DoctorTarget,
  doctorReportSchema,
  type HttpAnswer,
  runDoctor,
} from "@fleet-alerts/core/doctor";
import { describe, expect, it } from "vitest";

const NOW = Date.parse("2026-11-28T03:00:00Z");
const PASSWORD = "s3cret-of-north";

const TARGET: DoctorTarget = {
  stage: "prod",
  accounts: ["north"],
  lagThresholdSeconds: 600,
  deadLetterQueues: [{ name: "EvidenceDlq", url: "https://sqs.example/1/evidence-dlq" }],
  topics: [{ name: "alerts", arn: "arn:aws:sns:eu-west-1:1:alerts" }],
  evidenceBucket: "evidence",
  tsaUrl: "https://user:key@tsa.example/stamp?apikey=k3y",
  incidentBaseUrl: "https://alerts.example",
};

/** In-memory ports of a healthy stage; each test breaks one. */
function healthy(): DoctorPorts {
  return {
    secrets: {
      read: async () => ({
        missing: [],
        connection: { baseUrl: "https://cloud.example", username: "north", password: PASSWORD },
      }),
      howToSet: (name) => `set ${name}`,
    },
    login: { check: async () => ({ accepted: true, ms: 12 }) },
    polls: { read: async () => ({ caughtUpAtMs: NOW - 30_000, cursor: { serialno: 7n } }) },
    schedules: {
      list: async () => [{ name: "poll-north", enabled: true }],
      howToEnable: (name) => `enable ${name}`,
    },
    queues: { depth: async () => ({ arn: "arn:aws:sqs:eu-west-1:1:evidence-dlq", messages: 0 }) },
    subscriptions: { count: async () => ({ confirmed: 2, pending: 0 }) },
    objectLock: { state: async () => ({ enabled: true, mode: "COMPLIANCE", days: 1 }) },
    http: { get: async () => ({ status: 404, ms: 5 }) },
    now: () => NOW,
  };
}

const failedOf = async (ports: DoctorPorts, target = TARGET) => {
  const report = await runDoctor(target, ports, { callTimeoutMs: 100 });
  expect(doctorReportSchema.parse(report)).toEqual(report);
  expect(report.ok).toBe(report.checks.every((check) => check.ok));
  return report.checks.filter((check) => !check.ok);
};

describe("runDoctor", () => {
  it("passes a healthy stage: every check ok, in a fixed order", async () => {
    const report = await runDoctor(TARGET, healthy());
    expect(report.ok).toBe(true);
    expect(report.checks.map((check) => [check.name, check.detail])).toEqual([
      ["account north: secrets", "set, and accepted by the device cloud (12 ms)"],
      [
        "account north: last poll",
        "caught up 30 s ago, 2026-11-28T02:59:30.000Z (cursor at 7); lag under 600 s",
      ],
      ["schedules", "1 enabled: poll-north"],
      ["dead letters: EvidenceDlq", "empty"],
      ["subscriptions: alerts", "2 confirmed"],
      ["evidence bucket: Object Lock", "on for evidence (COMPLIANCE, 1 days)"],
      // The TSA's credentials and API key are not shown.
      ["Time-Stamp Authority", "https://***@tsa.example/stamp?*** answered HTTP 404 in 5 ms"],
      ["incident pages", "https://alerts.example answered HTTP 404 in 5 ms"],
    ]);
  });

  it("fails only the broken check, with its remedy, for each fault", async () => {
    const faults: Array<[Partial<DoctorPorts>, string, string]> = [
      [
        {
          secrets: {
            read: async () => ({ missing: ["DEVICE_CLOUD_NORTH_PASSWORD"] }),
            howToSet: (n) => `set ${n}`,
          },
        },
        "account north: secrets",
        "set DEVICE_CLOUD_NORTH_PASSWORD",
      ],
      [
        { login: { check: async () => ({ accepted: false, refused: true, reason: "HTTP 401" }) } },
        "account north: secrets",
        "DEVICE_CLOUD_NORTH_USERNAME",
      ],
      [
        { login: { check: async () => ({ accepted: false, refused: false, reason: "timed out" }) } },
        "account north: secrets",
        "DEVICE_CLOUD_NORTH_BASE_URL",
      ],
      [
        { polls: { read: async () => ({ caughtUpAtMs: NOW - 601_000 }) } },
        "account north: last poll",
        "docs/operate.md",
      ],
      [{ polls: { read: async () => ({}) } }, "account north: last poll", "schedule is enabled"],
      [
        { polls: { read: async () => ({ cursor: { serialno: 7n, movedAtMs: NOW - 601_000 } }) } },
        "account north: last poll",
        "schedule is enabled",
      ],
      [
        {
          schedules: {
            list: async () => [{ name: "poll-north", enabled: false }],
            howToEnable: (n) => `enable ${n}`,
          },
        },
        "schedules",
        "enable poll-north",
      ],
      [
        { queues: { depth: async () => ({ arn: "arn:q", messages: 3 }) } },
        "dead letters: EvidenceDlq",
        "--source-arn arn:q",
      ],
      [
        { subscriptions: { count: async () => ({ confirmed: 1, pending: 1 }) } },
        "subscriptions: alerts",
        "PendingConfirmation",
      ],
      [
        { objectLock: { state: async () => ({ enabled: false }) } },
        "evidence bucket: Object Lock",
        "infra/storage.ts",
      ],
    ];
    for (const [broken, name, remedy] of faults) {
      const failed = await failedOf({ ...healthy(), ...broken });
      expect(failed.map((check) => check.name)).toEqual([name]);
      expect(failed[0]?.remedy).toContain(remedy);
    }
  });

  it("counts a cursor moved within the threshold as polling, before a chain has recorded a catch-up", async () => {
    const report = await runDoctor(TARGET, {
      ...healthy(),
      polls: { read: async () => ({ cursor: { serialno: 7n, movedAtMs: NOW - 20_000 } }) },
    });
    expect(report.checks[1]).toEqual({
      name: "account north: last poll",
      ok: true,
      detail:
        "polling (cursor at 7, moved 20 s ago); no catch-up recorded yet: a poll chain records it as it ends",
    });
  });

  it("fails the addresses that do not answer, or answer 5xx", async () => {
    const answers: Record<string, HttpAnswer> = {
      "https://tsa.example/stamp?apikey=k3y": { error: "no answer within 100 ms" },
      "https://alerts.example/": { status: 502, ms: 3 },
    };
    const failed = await failedOf({
      ...healthy(),
      http: { get: async (url) => answers[url] ?? { error: "?" } },
    });
    expect(failed.map((check) => [check.name, check.detail])).toEqual([
      ["Time-Stamp Authority", "https://***@tsa.example/stamp?***: no answer within 100 ms"],
      ["incident pages", "https://alerts.example answered HTTP 502"],
    ]);
  });

  it("keeps going when a check throws or hangs: that one fails, named, and the others pass", async () => {
    const failed = await failedOf({
      ...healthy(),
      queues: { depth: async () => Promise.reject(new Error("AccessDenied")) },
      subscriptions: { count: () => new Promise(() => undefined) },
    });
    expect(failed.map((check) => [check.name, check.detail])).toEqual([
      ["dead letters: EvidenceDlq", "could not check: AccessDenied"],
      ["subscriptions: alerts", "no answer within 200 ms"],
    ]);
  });

  it("never shows a password or its hash, even when the service echoes them", async () => {
    const echo = `HTTP 401 (bad password ${PASSWORD} / ${hashPassword(PASSWORD)})`;
    const report = await runDoctor(TARGET, {
      ...healthy(),
      login: { check: async () => ({ accepted: false, refused: true, reason: echo }) },
    });
    const text = JSON.stringify(report);
    expect(text).toContain("HTTP 401");
    expect(text).not.toContain(PASSWORD);
    expect(text.toUpperCase()).not.toContain(hashPassword(PASSWORD));
  });

  it("passes a stage without a TSA, and skips what the stage cannot be asked", async () => {
    const { tsaUrl: _, ...withoutTsa } = TARGET;
    const report = await runDoctor(withoutTsa, {
      ...healthy(),
      objectLock: { state: async () => ({ unsupported: "an emulator" }) },
    });
    expect(report.ok).toBe(true);
    expect(report.checks.find((check) => check.name === "Time-Stamp Authority")?.detail).toBe(
      "none configured: claim packs are not stamped",
    );
    expect(report.checks.find((check) => check.skipped)).toEqual({
      name: "evidence bucket: Object Lock",
      ok: true,
      skipped: true,
      detail: "not checked: an emulator",
    });
  });
});
