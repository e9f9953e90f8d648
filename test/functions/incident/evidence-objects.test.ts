import { PutObjectCommand } from "@aws-sdk/client-s3";
import { alertItemSchema } from "@fleet-alerts/core/alerts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EvidenceObjects,
  SETS_KEPT,
} from "../../../packages/functions/src/incident/adapters/evidence-objects.js";
import { type Emulators, startEmulators } from "../../support/emulators.js";

let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
});
afterAll(() => emulators?.close());

/** A settled set's custody record (version 3, no clip, no track), stored, and its alert's record. */
async function settledSet(serial: number) {
  const prefix = `evidence/D1/2026/05/12/${serial}/`;
  const manifest = {
    version: 3,
    status: "complete",
    alert: { alertId: `east:${serial}:gsensor`, account: "east", ruleId: "gsensor", severity: "critical" },
    event: {},
    eventFile: { key: `${prefix}data/event.json`, sha256: "0".repeat(64), bytes: 2 },
    window: { startMs: 0, endMs: 60_000, secondsBefore: 30, secondsAfter: 30, utcOffset: "+0000" },
    coverage: { totalMinutes: 1, recordedMinutes: 0, partial: true, missing: [] },
    clips: [],
    skippedChannels: [],
    track: { status: "unavailable", reason: "disabled" },
    speed: { atEventKmh: null, maxKmh: null, distanceMeters: null },
    software: { name: "fleet-alerts", version: "0.1.0" },
    functionVersion: "local",
    createdAt: "2026-05-12T08:01:00.000Z",
  };
  await emulators.clients.s3.send(
    new PutObjectCommand({
      Bucket: emulators.bucket,
      Key: `${prefix}manifest.json`,
      Body: JSON.stringify(manifest),
    }),
  );
  return alertItemSchema.parse({
    account: "east",
    serialno: String(serial),
    ruleId: "gsensor",
    alertId: `east:${serial}:gsensor`,
    deviceid: "D1",
    appdevid: 13,
    eventtime: "2026-05-12T08:00:00.000Z",
    severity: "critical",
    status: "published",
    createdAt: "2026-05-12T08:00:05.000Z",
    evidenceStatus: "unavailable",
    evidenceKeys: [`${prefix}manifest.json`],
  });
}

describe("the settled sets an incident container keeps", () => {
  it(`are the ${SETS_KEPT} seen last: one more drops the least recently seen, read again when asked for`, async () => {
    const records = [];
    for (let serial = 1; serial <= SETS_KEPT + 1; serial++) records.push(await settledSet(serial));
    let reads = 0;
    emulators.clients.s3.middlewareStack.add(
      (next, context) => (args) => {
        if (context.commandName === "GetObjectCommand") reads++;
        return next(args);
      },
      { step: "initialize", name: "countReads" },
    );
    const objects = new EvidenceObjects(emulators.clients.s3, emulators.bucket);

    for (const record of records) expect(await objects.stored(record)).toBeDefined();
    expect(reads).toBe(SETS_KEPT + 1);
    // The newest ones are kept: no read.
    for (const record of records.slice(1)) await objects.stored(record);
    expect(reads).toBe(SETS_KEPT + 1);
    // The first was dropped when the last came in: read again.
    await objects.stored(records[0] as (typeof records)[number]);
    expect(reads).toBe(SETS_KEPT + 2);
  });
});
