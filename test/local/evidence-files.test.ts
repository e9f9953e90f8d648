import { existsSync, statSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Upload } from "@aws-sdk/lib-storage";
import { bagFolderName } from "@fleet-alerts/core/evidence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyBag } from "../../packages/local/src/evidence-files.js";
import { type Emulators, startEmulators } from "../support/emulators.js";
import { onGetObjectChunks } from "../support/s3-bodies.js";

const MIB = 1024 * 1024;
const CLIP_BYTES = 24 * MIB;

let emulators: Emulators;
let dir: string;
beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
  dir = await mkdtemp(join(tmpdir(), "fleet-alerts-evidence-files-"));
});
afterAll(async () => {
  await emulators?.close();
  await rm(dir, { recursive: true, force: true });
});

/** How far the bytes received of any object run ahead of the bytes in `file()` on disk, at most. */
function measureLead(emulators: Emulators, file: () => string): { maxLeadBytes: number } {
  const measured = { maxLeadBytes: 0 };
  let received = 0;
  onGetObjectChunks(emulators.clients.s3, (bytes) => {
    received += bytes;
    const written = existsSync(file()) ? statSync(file()).size : 0;
    measured.maxLeadBytes = Math.max(measured.maxLeadBytes, received - written);
  });
  return measured;
}

describe("the local mode's copy of a stored bag", () => {
  it("streams each object to its file: a 24 MiB clip is never held whole", async () => {
    const alertId = "north:1:gsensor";
    const prefix = "evidence/D1/2026/05/12/1/";
    const clip = Buffer.alloc(CLIP_BYTES, 7);
    // In parts, as the evidence function stores a clip.
    for (const [key, body] of [
      ["data/ch1.mp4", clip],
      ["report.html", "<p>report</p>"],
    ] as const)
      await new Upload({
        client: emulators.clients.s3,
        params: { Bucket: emulators.bucket, Key: `${prefix}${key}`, Body: body },
      }).done();
    const folder = join(dir, bagFolderName(alertId));
    const measured = measureLead(emulators, () => join(folder, "data/ch1.mp4"));

    const copied = await copyBag(
      emulators.clients.s3,
      { alertId, bucket: emulators.bucket, bag: { prefix, report: `${prefix}report.html` } },
      dir,
    );

    expect(copied).toEqual({ folder, report: join(folder, "report.html") });
    expect((await readFile(join(folder, "data/ch1.mp4"))).equals(clip)).toBe(true);
    expect(await readFile(copied.report, "utf8")).toBe("<p>report</p>");
    expect(measured.maxLeadBytes).toBeGreaterThan(0);
    expect(measured.maxLeadBytes).toBeLessThan(2 * MIB);
  });
});
