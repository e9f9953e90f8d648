import { randomBytes } from "node:crypto";
import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIncidentApp } from "../../../packages/functions/src/incident/app.js";
import { formProof } from "../../../packages/functions/src/incident/form-proof.js";
import { launchBrowser } from "../../support/browser.js";
import { alertRef, incidentWorld, storedIncident } from "../../support/fakes/incident.js";

const ALERT = alertRef("acme", 1001n, "overspeed");

/** The app on 127.0.0.1 (port 0), its public origin the one it listens on. */
async function serveApp(): Promise<{
  server: ServerType;
  origin: string;
  world: ReturnType<typeof incidentWorld>;
}> {
  let app: ReturnType<typeof createIncidentApp> | undefined;
  const server = serve({
    fetch: (request) => (app as NonNullable<typeof app>).fetch(request),
    port: 0,
    hostname: "127.0.0.1",
  });
  await new Promise((resolve) => server.once("listening", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const world = incidentWorld(origin);
  app = createIncidentApp(world.deps);
  return { server, origin, world };
}

/** Another site (localhost is a different site from 127.0.0.1) serving one page. */
async function serveOtherSite(html: string): Promise<{ server: Server; url: string }> {
  const server = createServer((_request, response) =>
    response.writeHead(200, { "content-type": "text/html" }).end(html),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://localhost:${(server.address() as AddressInfo).port}/` };
}

/** A context whose requests may reach only the two local servers: nothing leaves the machine. */
async function localContext(browser: Browser): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  await context.route("**/*", (route) =>
    /^http:\/\/(127\.0\.0\.1|localhost):\d+\//.test(route.request().url()) ? route.continue() : route.abort(),
  );
  return context;
}

describe("the incident page in Chromium", () => {
  let browser: Browser;
  let served: Awaited<ReturnType<typeof serveApp>>;
  beforeAll(async () => {
    browser = await launchBrowser();
    served = await serveApp();
  });
  afterAll(async () => {
    await browser?.close();
    served?.server.close();
  });

  it("shows the event, and after Acknowledge says who acknowledged", async () => {
    const token = randomBytes(24).toString("base64url");
    served.world.share(token, ALERT);
    served.world.addIncident(ALERT.alertId, storedIncident());
    const context = await localContext(browser);
    const page = await context.newPage();
    page.setDefaultTimeout(5000);
    const blocked: string[] = [];
    page.on("console", (message) => blocked.push(message.text()));
    await page.goto(`${served.origin}/i/${token}`);
    await expect(page.locator("h1").textContent()).resolves.toBe("OverSpeed · HH-FA 101");
    // The number the device cloud and the claim pack know the event by, as a person reads it.
    const serial = page.locator('#event dt:text-is("Serial number") + dd');
    await expect(serial.textContent()).resolves.toBe("1001");
    await expect(serial.isVisible()).resolves.toBe(true);
    expect(await page.locator("svg.track-map").count()).toBe(1);
    await page.getByLabel("Your name").fill("Ops Olga");
    await page.getByRole("button", { name: "Acknowledge" }).click();
    // The form posts, the app answers 303 to the page, which now says who acknowledged.
    await page.locator("#acknowledgement", { hasText: "Acknowledged by Ops Olga at" }).waitFor();
    expect(page.url()).toBe(`${served.origin}/i/${token}`);
    expect(await page.locator("form").count()).toBe(0);
    expect([...served.world.acknowledged.values()].map((ack) => ack.by)).toEqual(["Ops Olga"]);
    // The hashed style applied: nothing on the page was refused by its policy but the clips' fake S3 origin.
    expect(
      blocked.filter((line) => line.includes("Content Security Policy") && !line.includes("media-src")),
    ).toEqual([]);
    await mkdir("test-artifacts", { recursive: true });
    await page.screenshot({ path: "test-artifacts/incident-page.png", fullPage: true });
    await context.close();
  });

  it("shows evidence waiting for its vehicle: offline since when, kept on the card until when, in the fleet's zone", async () => {
    const token = randomBytes(24).toString("base64url");
    const grant = served.world.share(token, alertRef("acme", 2002n, "overspeed"));
    const waiting = storedIncident({
      evidence: {
        status: "waiting",
        offlineSinceMs: Date.parse("2026-03-14T09:31:00Z"),
        keptUntilMs: Date.parse("2026-03-21T09:30:00Z"),
        retentionDays: 7,
      },
      track: [],
    });
    const { window: _window, ...withoutWindow } = waiting;
    served.world.addIncident(grant.alertId, withoutWindow);
    const context = await localContext(browser);
    const page = await context.newPage();
    page.setDefaultTimeout(5000);
    await page.goto(`${served.origin}/i/${token}`);
    const evidence = ((await page.locator("#evidence").textContent()) ?? "").replace(/\s+/g, " ");
    expect(evidence).toContain(
      "Evidence: waiting for the vehicle to come online (offline since 2026-03-14 10:31:00 Europe/Berlin (UTC+01:00); kept on the card until about 2026-03-21 10:30:00 Europe/Berlin (UTC+01:00)).",
    );
    expect(evidence).toContain("UTC: offline since 2026-03-14 09:31:00 UTC; until 2026-03-21 09:30:00 UTC.");
    // Nothing to play or download yet.
    expect(await page.locator("video").count()).toBe(0);
    expect(await page.getByText("Download the claim pack").count()).toBe(0);
    await mkdir("test-artifacts", { recursive: true });
    await page.screenshot({ path: "test-artifacts/incident-page-waiting.png", fullPage: true });
    await context.close();
  });

  it("refuses the form posted from another site, even with the right form proof", async () => {
    const token = randomBytes(24).toString("base64url");
    const grant = served.world.share(token, alertRef("acme", 3003n, "overspeed"));
    served.world.addIncident(grant.alertId, storedIncident());
    const attacker =
      await serveOtherSite(`<!DOCTYPE html><form method="post" action="${served.origin}/i/${token}/ack">
<input type="hidden" name="proof" value="${formProof(served.world.deps.formSecret, grant.tokenId)}">
<input type="hidden" name="name" value="Mallory"><button type="submit">Win a prize</button></form>`);
    try {
      const context = await localContext(browser);
      const page = await context.newPage();
      await page.goto(attacker.url);
      const [response] = await Promise.all([
        page.waitForResponse((candidate) => candidate.url().endsWith("/ack")),
        page.getByRole("button", { name: "Win a prize" }).click(),
      ]);
      expect(response.status()).toBe(403);
      expect(served.world.acknowledged.has(grant.alertId)).toBe(false);
      await context.close();
    } finally {
      attacker.server.close();
    }
  });
});
