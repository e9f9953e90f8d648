import { ListObjectsV2Command } from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { AlertStore, alertIdOf } from "@fleet-alerts/core/alerts";
import { claimPackZipKey } from "@fleet-alerts/core/evidence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildClaimPackZip,
  CLAIM_PACK_PART_BYTES,
  CLAIM_PACK_PARTS_IN_FLIGHT,
} from "../../../packages/functions/src/claim-pack/build-zip.js";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { onGetObjectChunks } from "../../support/s3-bodies.js";

const MIB = 1024 * 1024;
// Over twice what the upload may hold, so that a zip built whole could not pass for a streamed one.
const CLIP_BYTES = 32 * MIB;

let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
});
afterAll(() => emulators?.close());

/** An alert whose settled bag holds one large clip, stored as the evidence function stores it. */
async function alertWithLargeBag(): Promise<{ alertId: string; alerts: AlertStore; prefix: string }> {
  const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
  const alerts = new AlertStore(table);
  const alert = { account: "east", serialno: 9001n, ruleId: "gsensor" };
  await alerts.record(
    {
      ...alert,
      deviceid: "D1",
      appdevid: 13,
      eventtime: "2026-05-12 08:00:00",
      severity: "critical",
      status: "published",
    },
    Date.now(),
  );
  const prefix = "evidence/D1/2026/05/12/9001/";
  await alerts.setEvidence(alert, { status: "stored", keys: [`${prefix}manifest.json`] });
  for (const [path, body] of [
    ["bagit.txt", "BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"],
    ["manifest.json", "{}\n"],
    ["data/ch1.mp4", Buffer.alloc(CLIP_BYTES, 1)],
  ] as const)
    await new Upload({
      client: emulators.clients.s3,
      params: { Bucket: emulators.bucket, Key: `${prefix}${path}`, Body: body },
    }).done();
  return { alertId: alertIdOf(alert.account, alert.serialno, alert.ruleId), alerts, prefix };
}

describe("the claim-pack zip for the incident page", () => {
  it(`is streamed into S3 in ${CLAIM_PACK_PART_BYTES / MIB} MiB parts, ${CLAIM_PACK_PARTS_IN_FLIGHT} at a time: memory holds a few parts, never the zip`, async () => {
    const { alertId, alerts, prefix } = await alertWithLargeBag();
    const s3 = emulators.clients.s3;
    let read = 0;
    let uploaded = 0;
    let inFlight = 0;
    const measured = { maxAhead: 0, maxInFlight: 0, parts: [] as number[] };
    onGetObjectChunks(s3, (bytes) => {
      read += bytes;
      measured.maxAhead = Math.max(measured.maxAhead, read - uploaded);
    });
    s3.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== "UploadPartCommand") return next(args);
        const bytes = (args.input as { Body: Uint8Array }).Body.byteLength;
        measured.parts.push(bytes);
        measured.maxInFlight = Math.max(measured.maxInFlight, ++inFlight);
        try {
          return await next(args);
        } finally {
          inFlight--;
          uploaded += bytes;
        }
      },
      { step: "initialize", name: "countParts" },
    );

    await buildClaimPackZip(
      { kind: "claim-pack", version: 1, alertId },
      {
        s3,
        alerts,
        evidenceBucket: emulators.bucket,
        stagingBucket: emulators.stagingBucket,
        observer: { observe: () => undefined },
      },
    );

    const key = claimPackZipKey(prefix);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: emulators.stagingBucket, Prefix: key }));
    expect(listed.Contents?.[0]?.Size).toBeGreaterThan(CLIP_BYTES);
    expect(measured.parts.length).toBeGreaterThanOrEqual(Math.ceil(CLIP_BYTES / CLAIM_PACK_PART_BYTES));
    for (const part of measured.parts.slice(0, -1)) expect(part).toBe(CLAIM_PACK_PART_BYTES);
    expect(measured.maxInFlight).toBeLessThanOrEqual(CLAIM_PACK_PARTS_IN_FLIGHT);
    // The parts in flight, the part being filled, and the streams' own small buffers between.
    expect(measured.maxAhead).toBeLessThan((CLAIM_PACK_PARTS_IN_FLIGHT + 1) * CLAIM_PACK_PART_BYTES + MIB);
  });
});
