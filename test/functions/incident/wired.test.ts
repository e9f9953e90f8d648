import { createHash } from "node:crypto";
import { type CurrentManifest, manifestKey } from "@fleet-alerts/core/evidence";
import { AccessAudit, ShareStore } from "@fleet-alerts/core/share";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formProof } from "../../../packages/functions/src/incident/form-proof.js";
import { type IncidentServer, serveIncidentApp } from "../../../packages/functions/src/incident-server.js";
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
      account: "main",
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
  a = await storedAlert(60);
  b = await storedAlert(90);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  server?.close();
  await harness?.close();
});

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

describe("the incident page with its real adapters", () => {
  it("shows the event, serves the clip's stored bytes, and records one acknowledgement", async () => {
    const context = await localContext();
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${origin}/i/${a.token}`);
    await expect(page.locator("h1").textContent()).resolves.toContain(harness.deviceid);
    await expect(page.locator("#evidence").textContent()).resolves.toContain("stored");

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

    const entries = await new AccessAudit(table()).list(a.alertId);
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

  it("links the claim pack's report, presigned", async () => {
    const context = await localContext();
    const pack = await context.request.get(`${origin}/i/${a.token}/pack`, { maxRedirects: 0 });
    expect(new URL(pack.headers().location as string).pathname).toContain(`${a.prefix}report.html`);
    const report = await context.request.get(`${origin}/i/${a.token}/pack`);
    expect(await report.text()).toContain(a.alertId);
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
