import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { CursorStore } from "@fleet-alerts/core/cursor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { fleetAlerts } from "./run.js";

let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators();
  const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
  await new CursorStore(table).advance("east", undefined, 1n, Date.now(), 0);
});
afterAll(() => emulators.close());

const VALID: Record<string, string> = {
  "--account": "east",
  "--device": "0012345678",
  "--at": "2026-01-05T08:30:00Z",
  "--reason": "Claim 7",
};

/** The command with the valid options, some replaced (undefined: left out), at a stage on the emulators. */
const request = (
  changes: Record<string, string | undefined> = {},
  env: Record<string, string | undefined> = {},
) =>
  fleetAlerts(
    [
      "evidence",
      "request",
      ...Object.entries({ ...VALID, ...changes }).flatMap(([name, value]) =>
        value === undefined ? [] : [name, value],
      ),
    ],
    {
      env: {
        ...emulators.env(),
        PUBLIC_BASE_URL: "https://alerts.example.test",
        DEVICE_CLOUD_ACCOUNTS: undefined,
        FLEET_ALERTS_ACCOUNT: undefined,
        ...env,
      },
    },
  );

describe("fleet-alerts evidence request refuses what it cannot ask for, saying why, and writes nothing", () => {
  it.each([
    [
      "a calendar-invalid time",
      { "--at": "2026-02-30T08:00:00Z" },
      "option '--at <time>' argument '2026-02-30T08:00:00Z' is invalid",
    ],
    ["a time that is no time", { "--at": "yesterday" }, "expected an ISO date or time"],
    [
      "a moment in the future",
      { "--at": "2999-01-01T00:00:00Z" },
      "--at 2999-01-01T00:00:00.000Z is in the future (now: ",
    ],
    [
      "an account the stage does not poll",
      { "--account": "west" },
      "unknown account west: the stage has never polled it",
    ],
    [
      "a device id that would change the playback path",
      { "--device": "../x@2" },
      "--device: must not contain @, / or \\",
    ],
    [
      "a device id with a control character",
      { "--device": "dev\u0007" },
      "--device: must not contain control characters",
    ],
    ["more than an hour before", { "--before": "3601" }, "--before: must be at most 3600 (1 hour)"],
    ["an empty window", { "--before": "0", "--after": "0" }, "--before and --after must not both be 0"],
    ["a channel over 32", { "--channels": "1,33" }, "--channels: "],
    ["a channel twice", { "--channels": "1,1" }, "--channels: must not repeat a channel"],
    [
      "channels that are not numbers",
      { "--channels": "one" },
      "expected channel numbers separated by commas",
    ],
    ["an empty reason", { "--reason": "  " }, "--reason: must not be empty"],
    ["an over-long reason", { "--reason": "x".repeat(501) }, "--reason: must be at most 500 characters"],
    ["a reason of two lines", { "--reason": "two\nlines" }, "--reason: must be one line"],
    ["no account named", { "--account": undefined }, "--account is required"],
  ])("%s", async (_label, changes, message) => {
    const run = await request(changes);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(message);
  });

  it("asks where the request goes when no stage or local mode is named", async () => {
    const stageless = await request({}, { TABLE_NAME: undefined, EVIDENCE_QUEUE_URL: undefined });
    expect(stageless.code).toBe(1);
    expect(stageless.stderr).toContain(
      "say where to ask: --table (TABLE_NAME), --queue (EVIDENCE_QUEUE_URL); or --local for a running npm start",
    );
    const noLocal = await request({ "--local": "/nonexistent/endpoints.json" });
    expect(noLocal.stderr).toContain("no local mode running: /nonexistent/endpoints.json not found");
  });

  it("wrote no record, no job and no link for any of them", async () => {
    const { Items } = await emulators.clients.documents.send(
      new ScanCommand({ TableName: emulators.tableName }),
    );
    expect((Items ?? []).map((item) => item.sk)).toEqual(["CURSOR"]);
  });
});
