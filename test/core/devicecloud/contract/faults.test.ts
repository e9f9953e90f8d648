import { inspect } from "node:util";
import {
  DeviceCloudHttpError,
  DeviceCloudInvalidResponseError,
  DeviceCloudNetworkError,
  DeviceCloudTimeoutError,
  hashPassword,
  PlaybackNotMp4Error,
  PlaybackTruncatedError,
  redactSecrets,
} from "@fleet-alerts/core/devicecloud";
import type { FaultRule, Simulator } from "@fleet-alerts/simulator";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { inspectMp4 } from "../../../support/mp4.js";
import { startContract } from "./harness.js";

// An account whose password and hash are distinctive, so that any leak is found by a plain search.
const ACCOUNT = { username: "fleet-ops", password: "Pl41n-Pa55word!", admin: true };
const SECRETS = [
  ACCOUNT.password,
  hashPassword(ACCOUNT.password),
  hashPassword(ACCOUNT.password).toLowerCase(),
];

let simulator: Simulator;
let makeClient: Awaited<ReturnType<typeof startContract>>["client"];
const logLines: string[] = [];
const errors: unknown[] = [];

beforeAll(async () => {
  const contract = await startContract({ seed: 1, devices: 4, historyHours: 2, accounts: [ACCOUNT] });
  simulator = contract.simulator;
  makeClient = contract.client;
  simulator.control.setRecording(
    firstDevice(),
    new Date("2026-01-04T23:00:00Z"),
    new Date("2026-01-05T00:00:00Z"),
    1,
  );
});
afterEach(() => simulator.control.faults.clear());
afterAll(async () => {
  await simulator.close();
});

function firstDevice(): string {
  return simulator.control.devices()[0]?.deviceid as string;
}

function client(settings: { timeoutMs?: number } = {}) {
  return makeClient({
    credentials: { username: ACCOUNT.username, password: ACCOUNT.password },
    logger: { warn: (message, attributes) => logLines.push(`${message} ${JSON.stringify(attributes)}`) },
    ...settings,
  });
}

/** Runs the call with the fault in place and returns what it threw, keeping it for the secrets scan. */
async function failureOf(fault: FaultRule, call: () => Promise<unknown>): Promise<unknown> {
  simulator.control.faults.add(fault);
  simulator.control.resetRequests();
  const error = await call().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  errors.push(error);
  return error;
}

const attempts = () => simulator.control.requests.length;
const playback = () => ({
  deviceid: firstDevice(),
  channel: 1,
  durationMinutes: 1,
  start: new Date("2026-01-04T23:10:00Z"),
});

describe("injected faults on JSON endpoints", () => {
  it("retries a 500 and succeeds", async () => {
    expect(
      await failureOf({ endpoint: "alllist", kind: "status500", times: 2 }, () => client().allDevices()),
    ).toBeUndefined();
    expect(attempts()).toBe(3);
  });

  it("gives up on a persistent 503 after the bounded attempts", async () => {
    const error = await failureOf({ endpoint: "eventquery", kind: "status503" }, () =>
      client().queryEvents(),
    );
    expect(error).toBeInstanceOf(DeviceCloudHttpError);
    expect(error).toMatchObject({ status: 503, attempts: 4, retryable: true });
    expect(attempts()).toBe(4);
  });

  it("retries a 429 after its Retry-After", async () => {
    const fault: FaultRule = { endpoint: "onlinelist", kind: "status429", times: 1, retryAfterSeconds: 0 };
    expect(await failureOf(fault, () => client().onlineDevices())).toBeUndefined();
    expect(attempts()).toBe(2);
  });

  it.each([
    ["htmlPage200", /HTML page/],
    ["malformedJson", /not valid JSON/],
    ["truncatedJson", /not valid JSON/],
  ] as const)("reports %s as an invalid response, without retrying", async (kind, message) => {
    const error = await failureOf({ endpoint: "eventquery", kind }, () => client().queryEvents());
    expect(error).toBeInstanceOf(DeviceCloudInvalidResponseError);
    expect((error as Error).message).toMatch(message);
    expect(attempts()).toBe(1);
  });

  it("retries a connection reset, and reports a persistent one as a network error", async () => {
    expect(
      await failureOf({ endpoint: "alllist", kind: "connectionReset", times: 1 }, () =>
        client().allDevices(),
      ),
    ).toBeUndefined();
    const error = await failureOf({ endpoint: "alllist", kind: "connectionReset" }, () =>
      client().allDevices(),
    );
    expect(error).toBeInstanceOf(DeviceCloudNetworkError);
    expect(error).toMatchObject({ attempts: 4 });
  });

  it("times out a slow answer, and retries past one slow answer", async () => {
    const slow: FaultRule = { endpoint: "recordlist", kind: "latency", latencyMs: 400 };
    const error = await failureOf(slow, () =>
      client({ timeoutMs: 100 }).recordList({ deviceid: firstDevice() }),
    );
    expect(error).toBeInstanceOf(DeviceCloudTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 100, attempts: 4 });
    simulator.control.faults.clear();
    const once = await failureOf({ ...slow, times: 1 }, () =>
      client({ timeoutMs: 100 }).recordList({ deviceid: firstDevice() }),
    );
    expect(once).toBeUndefined();
  });
});

describe("injected faults on the playback download", () => {
  it("retries a 500 before the body and then streams the clip", async () => {
    simulator.control.faults.add({ endpoint: "dlplayback", kind: "status500", times: 1 });
    const clip = await inspectMp4((await client().downloadPlayback(playback())).body);
    expect(clip.boxes.map((box) => box.type)).toEqual(["ftyp", "moov", "mdat"]);
  });

  it("refuses an HTML page sent with status 200 as not an MP4", async () => {
    const error = await failureOf({ endpoint: "dlplayback", kind: "htmlPage200" }, () =>
      client().downloadPlayback(playback()),
    );
    expect(error).toBeInstanceOf(PlaybackNotMp4Error);
    expect(error).toMatchObject({ detectedAs: "html" });
  });

  it("fails the stream, not silently, when it is cut part-way", async () => {
    const error = await failureOf(
      { endpoint: "dlplayback", kind: "playbackCut", cutAfterBytes: 200_000 },
      async () => {
        const download = await client().downloadPlayback(playback());
        await inspectMp4(download.body);
      },
    );
    expect(error).toBeInstanceOf(PlaybackTruncatedError);
    expect(error).toMatchObject({ expectedBytes: simulator.control.playbacks.at(-1)?.totalBytes });
    expect((error as PlaybackTruncatedError).receivedBytes).toBeLessThanOrEqual(200_000);
  });

  it("reports a persistent connection reset as a network error", async () => {
    const error = await failureOf({ endpoint: "dlplayback", kind: "connectionReset" }, () =>
      client().downloadPlayback(playback()),
    );
    expect(error).toBeInstanceOf(DeviceCloudNetworkError);
    expect((error as Error).message).toMatch(/^device cloud playback \(GET \/dlplayback\): network error/);
  });
});

describe("secrets", () => {
  it("no error and no log line of the fault tests contains the password or its hash", () => {
    const failures = errors.filter((error) => error !== undefined);
    expect(failures.length).toBeGreaterThanOrEqual(8);
    expect(logLines.length).toBeGreaterThan(5);
    const printed = [
      ...logLines,
      ...failures.flatMap((error) => [
        String(error),
        inspect(error, { depth: 5, showHidden: true }),
        JSON.stringify(error),
      ]),
      ...failures.map((error) => (error as Error).stack ?? ""),
    ];
    for (const text of printed) {
      // On failure, say where without printing the secret itself into the test output.
      const where = redactSecrets(text, SECRETS).slice(0, 200);
      for (const secret of SECRETS) expect(text.includes(secret), `a secret leaked in: ${where}`).toBe(false);
    }
  });
});
