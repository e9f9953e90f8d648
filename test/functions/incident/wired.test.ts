import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DeleteMessageCommand } from "@aws-sdk/client-sqs";
import type { Observer } from "@fleet-alerts/core";
import {
  bagFolderName,
  type ClaimPackJob,
  type CurrentManifest,
  claimPackJobSchema,
  claimPackZipKey,
  manifestKey,
  verifyBag,
} from "@fleet-alerts/core/evidence";
import { AccessAudit, ShareStore } from "@fleet-alerts/core/share";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openZipBag } from "../../../packages/functions/src/claim-pack/zip-source.js";
import { formProof } from "../../../packages/functions/src/incident/form-proof.js";
import { type IncidentServer, serveIncidentApp } from "../../../packages/functions/src/incident-server.js";
import { receive } from "../../../packages/local/src/delivery.js";
import { launchBrowser } from "../../support/browser.js";
import { type EvidenceHarness, startEvidenceHarness } from "../../support/evidence-harness.js";

// The incident page with its real adapters: the table and bucket on the emulators, evidence stored
// by the real evidence function from the simulator, the app served on 127.0.0.1 as the local mode
// serves it, opened in Chromium.

const FORM_SECRET = "a-form-secret-of-the-test-run";
let harness: EvidenceHarness;
let browser: Browser;
let server: IncidentServer;
let origin: string;
let dir: string;
const table = () => ({
  documents: harness.emulators.clients.documents,
  tableName: harness.emulators.tableName,
});

interface StoredAlert {
  alertId: string;
  prefix: string;
  manifest: CurrentManifest;
  token: string;
  tokenId: string;
}

/** An alert with its evidence stored by the evidence function, and a share link to it. */
async function storedAlert(minutesAgo: number): Promise<StoredAlert> {
  const { job, serialno, prefix } = await harness.jobFor({
    minutesAgo,
    before: 20,
    after: 20,
    channels: [1],
  });
  expect(await harness.deliver([job])).toEqual([]);
  const manifest = JSON.parse((await harness.objectBytes(manifestKey(prefix))).toString("utf8"));
  const nowMs = Date.now();
  const share = await new ShareStore(table()).create(
    {
      alertId: job.alertId,
      account: "east",
      serialno,
      ruleId: "shock",
      scope: "view+ack",
      createdBy: "test",
      expiresAtMs: nowMs + 3_600_000,
    },
    nowMs,
  );
  return { alertId: job.alertId, prefix, manifest, token: share.token, tokenId: share.tokenId };
}

/** A browser context whose requests reach only this machine (the app, and the S3 emulator). */
async function localContext(): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.route("**/*", (route) =>
    /^http:\/\/127\.0\.0\.1:\d+\//.test(route.request().url()) ? route.continue() : route.abort(),
  );
  return context;
}

let a: StoredAlert;
let b: StoredAlert;

beforeAll(async () => {
  harness = await startEvidenceHarness({ bitrateBitsPerSecond: 128_000 });
  server = await serveIncidentApp((baseUrl) => ({
    ...harness.emulators.env(),
    PUBLIC_BASE_URL: baseUrl,
    FLEET_TIME_ZONE: "Europe/Berlin",
    INCIDENT_FORM_SECRET: FORM_SECRET,
  }));
  origin = server.baseUrl;
  browser = await launchBrowser();
  dir = await mkdtemp(join(tmpdir(), "fleet-alerts-pack-"));
  a = await storedAlert(60);
  b = await storedAlert(90);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  server?.close();
  await harness?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

/** The claim-pack jobs the app has put on the evidence queue, taken off it. */
async function takePackJobs(): Promise<ClaimPackJob[]> {
  const { sqs } = harness.emulators.clients;
  const queueUrl = harness.emulators.queues.evidence;
  const messages = await receive(sqs, queueUrl);
  for (const message of messages)
    await sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle }));
  return messages.map((message) => claimPackJobSchema.parse(JSON.parse(message.Body as string)));
}

describe("the incident page with its real adapters", () => {
  it("shows the event, serves the clip's stored bytes, and records one acknowledgement", async () => {
    const context = await localContext();
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${origin}/i/${a.token}`);
    await expect(page.locator("h1").textContent()).resolves.toContain(harness.deviceid);
    await expect(page.locator("#evidence").textContent()).resolves.toContain("stored");
    // The serial number from the alert's own record, visible beside its label.
    const serial = page.locator('#event dt:text-is("Serial number") + dd');
    await expect(serial.textContent()).resolves.toBe(a.alertId.split(":")[1]);
    await expect(serial.isVisible()).resolves.toBe(true);

    // The clip through the app's 302 to its presigned URL (at most 15 minutes), as the player fetches it.
    const redirect = await context.request.get(`${origin}/i/${a.token}/clips/0`, { maxRedirects: 0 });
    expect(redirect.status()).toBe(302);
    const presigned = new URL(redirect.headers().location as string);
    expect(Number(presigned.searchParams.get("X-Amz-Expires"))).toBeLessThanOrEqual(900);
    const clip = await context.request.get(`${origin}/i/${a.token}/clips/0`);
    expect(sha256(await clip.body())).toBe(a.manifest.clips[0]?.sha256);

    await page.getByLabel("Your name").fill("Ops Olga");
    await page.getByRole("button", { name: "Acknowledge" }).click();
    await page.locator("#acknowledgement", { hasText: "Acknowledged by Ops Olga at" }).waitFor();
    const [account, serialno, ruleId] = a.alertId.split(":") as [string, string, string];
    const acknowledged = await harness.alerts.get(account, BigInt(serialno), ruleId);
    expect(acknowledged?.acknowledgement).toMatchObject({ by: "Ops Olga", tokenId: a.tokenId });

    // A second acknowledgement (the form posted again, as from a stale tab) is not recorded.
    const again = await context.request.post(`${origin}/i/${a.token}/ack`, {
      headers: { origin },
      form: { name: "Late Larry", proof: formProof(FORM_SECRET, a.tokenId) },
      maxRedirects: 0,
    });
    expect(again.status()).toBe(303);
    const after = await harness.alerts.get(account, BigInt(serialno), ruleId);
    expect(after?.acknowledgement).toEqual(acknowledged?.acknowledgement);

    const { entries } = await new AccessAudit(table()).list(a.alertId, { limit: 100 });
    expect(new Set(entries.map((entry) => entry.action))).toEqual(new Set(["view", "clip", "ack"]));
    expect(entries.every((entry) => entry.tokenId === a.tokenId)).toBe(true);
    expect(JSON.stringify(entries)).not.toContain(a.token);
    await context.close();
  }, 60_000);

  it("reads a settled set once per container: a page seen again reads no object", async () => {
    const context = await localContext();
    const s3Gets = async () => (await harness.emulators.requestCounts())["S3 GET"] ?? 0;
    const atStart = await s3Gets();
    expect((await context.request.get(`${origin}/i/${b.token}`)).status()).toBe(200);
    const afterFirst = await s3Gets();
    expect(afterFirst - atStart).toBe(2); // the custody record and the track
    const again = await context.request.get(`${origin}/i/${b.token}`);
    expect(await again.text()).toContain(b.manifest.clips[0]?.sha256);
    expect(await s3Gets()).toBe(afterFirst);
    await context.close();
  });

  it("builds the claim pack on demand, then downloads it as a zip that verifies", async () => {
    const context = await localContext();
    const first = await context.request.get(`${origin}/i/${a.token}/pack`, { maxRedirects: 0 });
    expect(first.status()).toBe(200);
    expect(await first.text()).toContain("The claim pack is being prepared");
    const jobs = await takePackJobs();
    expect(jobs).toEqual([{ kind: "claim-pack", version: 1, alertId: a.alertId }]);

    // Delivered twice (SQS may): the second finds the zip and writes nothing.
    const zipped: boolean[] = [];
    const observer: Observer = {
      observe: (observation) => {
        if (observation.type === "claim-pack-zipped") zipped.push(observation.built);
      },
    };
    expect(await harness.deliver(jobs, 1, harness.env, { observer })).toEqual([]);
    const writes = async () => {
      const counts = await harness.emulators.requestCounts();
      return (counts["S3 PUT"] ?? 0) + (counts["S3 POST"] ?? 0);
    };
    const afterFirst = await writes();
    expect(await harness.deliver(jobs, 1, harness.env, { observer })).toEqual([]);
    expect(await writes()).toBe(afterFirst);
    expect(zipped).toEqual([true, false]);
    expect(await harness.keysUnder(harness.emulators.stagingBucket, "packs/")).toEqual([
      claimPackZipKey(a.prefix),
    ]);

    const redirect = await context.request.get(`${origin}/i/${a.token}/pack`, { maxRedirects: 0 });
    expect(redirect.status()).toBe(302);
    const presigned = new URL(redirect.headers().location as string);
    expect(Number(presigned.searchParams.get("X-Amz-Expires"))).toBeLessThanOrEqual(900);
    const fileName = `${bagFolderName(a.alertId)}.zip`;
    expect(presigned.searchParams.get("response-content-disposition")).toBe(
      `attachment; filename="${fileName}"`,
    );
    expect(presigned.searchParams.get("response-content-type")).toBe("application/zip");
    const download = await context.request.get(presigned.toString());
    expect(download.status()).toBe(200);

    const zipPath = join(dir, fileName);
    await writeFile(zipPath, await download.body());
    const bag = await openZipBag(zipPath);
    try {
      expect((await verifyBag(bag)).problems).toEqual([]);
      for (const clip of a.manifest.clips)
        expect(sha256(Buffer.from(await bag.read(clip.key.slice(a.prefix.length))))).toBe(clip.sha256);
    } finally {
      await bag.close();
    }
    const actions = (await new AccessAudit(table()).list(a.alertId, { limit: 100 })).entries.map(
      (entry) => entry.action,
    );
    expect(actions.filter((action) => action === "pack")).toHaveLength(1);
    await context.close();
  }, 60_000);

  it("builds and serves each link's own pack: A's token never reaches B's", async () => {
    const context = await localContext();
    expect((await context.request.get(`${origin}/i/${b.token}/pack`, { maxRedirects: 0 })).status()).toBe(
      200,
    );
    const jobs = await takePackJobs();
    expect(jobs).toEqual([{ kind: "claim-pack", version: 1, alertId: b.alertId }]);
    expect(await harness.deliver(jobs)).toEqual([]);
    const packKey = async (token: string) => {
      const response = await context.request.get(`${origin}/i/${token}/pack`, { maxRedirects: 0 });
      return decodeURIComponent(new URL(response.headers().location as string).pathname);
    };
    const [keyA, keyB] = [await packKey(a.token), await packKey(b.token)];
    expect([keyA.endsWith(claimPackZipKey(a.prefix)), keyB.endsWith(claimPackZipKey(b.prefix))]).toEqual([
      true,
      true,
    ]);
    await context.close();
  });

  it("presigns only the link's own alert's clips: A's token never reaches B's", async () => {
    const context = await localContext();
    for (const [index] of a.manifest.clips.entries()) {
      const response = await context.request.get(`${origin}/i/${a.token}/clips/${index}`, {
        maxRedirects: 0,
      });
      const key = decodeURIComponent(new URL(response.headers().location as string).pathname);
      expect(key).toContain(a.prefix);
      expect(key).not.toContain(b.prefix);
    }
    const beyond = await context.request.get(`${origin}/i/${a.token}/clips/${a.manifest.clips.length}`, {
      maxRedirects: 0,
    });
    expect(beyond.status()).toBe(404);
    const page = await (await context.request.get(`${origin}/i/${a.token}`)).text();
    expect(page).not.toContain(b.prefix);
    await context.close();
  });
});
