import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createIncidentApp } from "../../../packages/functions/src/incident/app.js";
import { formProof } from "../../../packages/functions/src/incident/form-proof.js";
import { NOT_FOUND_PAGE } from "../../../packages/functions/src/incident/page-document.js";
import { alertRef, incidentWorld, MEDIA_ORIGIN, storedIncident } from "../../support/fakes/incident.js";

const ORIGIN = "https://alerts.example.com";
const ALERT_A = alertRef("acme", 1001n, "overspeed");
const ALERT_B = alertRef("acme", 2002n, "harsh-braking");
const newToken = () => randomBytes(24).toString("base64url");

// Every token the tests make: none may appear in anything the app (or anything else) prints.
const tokensMade: string[] = [];
const printed: string[] = [];

function setUp() {
  const world = incidentWorld(ORIGIN);
  const tokenA = newToken();
  const tokenB = newToken();
  const viewOnly = newToken();
  tokensMade.push(tokenA, tokenB, viewOnly);
  const grantA = world.share(tokenA, ALERT_A);
  world.share(tokenB, ALERT_B);
  const viewGrant = world.share(viewOnly, ALERT_A, "view");
  world.addIncident(ALERT_A.alertId, storedIncident(), "https://packs.example/claim-a.zip");
  world.addIncident(ALERT_B.alertId, storedIncident({ evidence: { status: "pending" }, escalations: [] }));
  const app = createIncidentApp(world.deps);
  // What a browser sends from the page (an empty value leaves a header out).
  const acknowledge = (token: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    app.request(`/i/${token}/ack`, {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: Object.entries({
        "content-type": "application/x-www-form-urlencoded",
        origin: ORIGIN,
        "sec-fetch-site": "same-origin",
        ...headers,
      }).filter(([, value]) => value !== ""),
    });
  return { world, app, tokenA, tokenB, viewOnly, grantA, viewGrant, acknowledge };
}

async function snapshot(response: Response) {
  return { status: response.status, headers: [...response.headers.entries()], body: await response.text() };
}

beforeAll(() => {
  const capture = (stream: NodeJS.WriteStream) =>
    vi.spyOn(stream, "write").mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    });
  capture(process.stdout);
  capture(process.stderr);
  for (const method of ["log", "info", "warn", "error", "debug"] as const)
    vi.spyOn(console, method).mockImplementation(
      (...args: unknown[]) => void printed.push(args.map(String).join(" ")),
    );
});
afterAll(() => vi.restoreAllMocks());

describe("the incident page", () => {
  it("shows the event, its position, speed, map, chart, clips with their digests, the pack and the history", async () => {
    const { app, tokenA, world } = setUp();
    const response = await app.request(`/i/${tokenA}`, { headers: { "user-agent": "Phone/1.0" } });
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const text of [
      "OverSpeed · HH-FA 101",
      "2026-03-14 09:30:00 UTC",
      "Europe/Berlin",
      "Dana &lt;Driver&gt;",
      "52.521200, 13.406800 (from the GPS track at the event time)",
      "75.4 km/h",
      `<svg class="track-map"`,
      `<svg class="speed-chart"`,
      "Evidence: <strong>stored</strong>",
      `<video controls preload="metadata" src="/i/${tokenA}/clips/0">`,
      `src="/i/${tokenA}/clips/1"`,
      "a".repeat(64),
      "b".repeat(64),
      `href="/i/${tokenA}/pack"`,
      "Alert published",
      "Escalated to level 1",
      "Evidence stored",
      `<button type="submit">Acknowledge</button>`,
    ])
      expect(html).toContain(text);
    expect(html).not.toContain("<script");
    expect(world.accesses).toEqual([
      {
        alertId: ALERT_A.alertId,
        tokenId: "tid-1",
        action: "view",
        userAgent: "Phone/1.0",
        atMs: world.deps.now(),
      },
    ]);
  });

  it("says evidence is pending and offers no clip before it is stored", async () => {
    const { app, tokenB } = setUp();
    const html = await (await app.request(`/i/${tokenB}`)).text();
    expect(html).toContain("Evidence: <strong>pending</strong>");
    expect(html).not.toContain("<video");
    expect((await app.request(`/i/${tokenB}/clips/0`)).status).toBe(404);
  });

  it("says no video was asked for an alert whose rule wants none", async () => {
    const { app, world } = setUp();
    const token = newToken();
    tokensMade.push(token);
    const offline = alertRef("acme", 3003n, "offline");
    world.share(token, offline);
    world.addIncident(offline.alertId, storedIncident({ evidence: { status: "not-requested" } }));
    const html = await (await app.request(`/i/${token}`)).text();
    expect(html).toContain(
      "Evidence: <strong>none</strong>. The rule that raised this alert asks for no video.",
    );
    expect(html).not.toContain("<video");
    expect(html).not.toContain("claim pack");
  });

  it("sets the security headers on the page, the redirects, the 404 and the refusals", async () => {
    const { app, tokenA, acknowledge } = setUp();
    const responses = [
      await app.request(`/i/${tokenA}`),
      await app.request(`/i/${tokenA}/clips/0`),
      await app.request(`/i/${newToken()}`),
      await app.request("/elsewhere"),
      await acknowledge(tokenA, { name: "Eve" }, { origin: "https://evil.example" }),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 302, 404, 404, 403]);
    for (const response of responses) {
      const policy = response.headers.get("content-security-policy") ?? "";
      expect(policy).toContain("default-src 'none'");
      expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/]+={0,2}'/);
      expect(policy).toContain("img-src 'self' data:");
      expect(policy).toContain(`media-src 'self' ${MEDIA_ORIGIN}`);
      expect(policy).toContain("form-action 'self'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(policy).toContain("base-uri 'none'");
      expect(policy).not.toContain("script-src");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("links that grant nothing", () => {
  it("unknown, malformed, expired and revoked tokens get byte-identical 404s, on every route", async () => {
    const { app, world, tokenA, tokenB } = setUp();
    world.revoke(tokenB);
    const expiring = newToken();
    tokensMade.push(expiring);
    world.share(expiring, ALERT_A);
    world.advance(3_600_000);
    for (const suffix of ["", "/clips/0", "/pack"]) {
      const cases = [newToken(), "%00<script>", "x".repeat(300), expiring, tokenB];
      const answers = [];
      for (const token of cases) answers.push(await snapshot(await app.request(`/i/${token}${suffix}`)));
      expect(answers[0]?.status).toBe(404);
      for (const answer of answers) expect(answer).toEqual(answers[0]);
      expect(answers[0]?.body).not.toContain(tokenA);
    }
    expect(world.accesses).toEqual([]);
  });

  it("finds nothing for 10,000 random tokens", async () => {
    const { app } = setUp();
    for (let attempt = 0; attempt < 10_000; attempt++)
      expect((await app.request(`/i/${randomBytes(16).toString("base64url")}`)).status).toBe(404);
  });
});

describe("a token reaches its own alert only", () => {
  it("presigns only the keys of its alert's manifest, by position, and nothing past them", async () => {
    const { app, world, tokenA, tokenB } = setUp();
    const clip = await app.request(`/i/${tokenA}/clips/1`);
    expect(clip.status).toBe(302);
    expect(clip.headers.get("location")).toBe(
      `${MEDIA_ORIGIN}/evidence/D1/2026/03/14/1001/data/ch2.mp4?X-Amz-Expires=600&X-Amz-Signature=fake`,
    );
    for (const n of ["2", "-1", "1e0", "ch1.mp4", "..%2F..%2Fmanifest.json"])
      expect((await app.request(`/i/${tokenA}/clips/${n}`)).status).toBe(404);
    expect((await app.request(`/i/${tokenB}/clips/0`)).status).toBe(404);
    expect(world.presigned).toEqual([
      { alertId: ALERT_A.alertId, key: "evidence/D1/2026/03/14/1001/data/ch2.mp4" },
    ]);
    expect(world.accesses.map((access) => [access.alertId, access.action])).toEqual([
      [ALERT_A.alertId, "clip"],
    ]);
  });

  it("downloads its own alert's claim pack once built, and none while its evidence is pending", async () => {
    const { app, world, tokenA, tokenB } = setUp();
    const pack = await app.request(`/i/${tokenA}/pack`);
    expect([pack.status, pack.headers.get("location")]).toEqual([302, "https://packs.example/claim-a.zip"]);
    const pending = await app.request(`/i/${tokenB}/pack`);
    expect(pending.status).toBe(404);
    expect(await pending.text()).toBe(NOT_FOUND_PAGE);
    expect(world.accesses.map((access) => access.action)).toEqual(["pack"]);
    expect(world.packRequests).toEqual([]);
  });

  it("asks for a claim pack not built yet, and says it is being prepared", async () => {
    const { app, world } = setUp();
    const ALERT_C = alertRef("acme", 3003n, "overspeed");
    const tokenC = newToken();
    tokensMade.push(tokenC);
    world.share(tokenC, ALERT_C);
    world.addIncident(ALERT_C.alertId, storedIncident());
    for (let asked = 0; asked < 2; asked++) {
      const preparing = await app.request(`/i/${tokenC}/pack`);
      expect(preparing.status).toBe(200);
      expect(preparing.headers.get("content-security-policy")).toContain("default-src 'none'");
      const html = await preparing.text();
      expect(html).toContain("The claim pack is being prepared");
      expect(html).toContain(`<meta http-equiv="refresh" content="15">`);
      expect(html).not.toContain("<script");
      expect(html.includes(tokenC)).toBe(false);
    }
    // Each visit asks again: the builder keeps a zip that is there, so a second ask is harmless.
    expect(world.packRequests).toEqual([ALERT_C.alertId, ALERT_C.alertId]);
    // Only a download is an access; the waiting page reloads itself.
    expect(world.accesses).toEqual([]);
  });

  it("acknowledges only its own alert: A's form proof does not work with B's token", async () => {
    const { acknowledge, world, tokenB, grantA } = setUp();
    const response = await acknowledge(tokenB, {
      name: "Eve",
      proof: formProof("test-form-secret", grantA.tokenId),
    });
    expect(response.status).toBe(403);
    expect(world.acknowledged.size).toBe(0);
  });
});

describe("acknowledging", () => {
  it("records the first acknowledgement once; the page then says who and when and offers no form", async () => {
    const { app, acknowledge, world, tokenA, grantA } = setUp();
    const proof = formProof("test-form-secret", grantA.tokenId);
    const first = await acknowledge(tokenA, { name: "  Ops Olga ", note: "on it", proof });
    expect([first.status, first.headers.get("location")]).toEqual([303, `/i/${tokenA}`]);
    world.advance(60_000);
    const second = await acknowledge(tokenA, { name: "Late Larry", proof });
    expect(second.status).toBe(303);
    expect([...world.acknowledged.values()]).toEqual([
      { by: "Ops Olga", note: "on it", tokenId: grantA.tokenId, atMs: world.deps.now() - 60_000 },
    ]);
    const html = await (await app.request(`/i/${tokenA}`)).text();
    expect(html).toContain("Acknowledged by <strong>Ops Olga</strong> at 2026-03-14 10:00:00 UTC");
    expect(html).toContain("Note: on it");
    expect(html).not.toContain("<form");
    expect(world.accesses.map((access) => access.action)).toEqual(["ack", "ack", "view"]);
  });

  it("accepts what browsers send from the page under no-referrer (Origin null, Sec-Fetch-Site same-origin) and what a non-browser client sends", async () => {
    const { acknowledge, world, tokenA, grantA } = setUp();
    const proof = formProof("test-form-secret", grantA.tokenId);
    const fromPage = await acknowledge(tokenA, { name: "Olga", proof }, { origin: "null" });
    const fromScript = await acknowledge(
      tokenA,
      { name: "Bot", proof },
      { origin: "", "sec-fetch-site": "" },
    );
    expect([fromPage.status, fromScript.status]).toEqual([303, 303]);
    expect([...world.acknowledged.values()].map((ack) => ack.by)).toEqual(["Olga"]);
  });

  it("a view link shows no form and cannot acknowledge, even with its own form proof", async () => {
    const { app, acknowledge, world, viewOnly, viewGrant } = setUp();
    expect(await (await app.request(`/i/${viewOnly}`)).text()).not.toContain("<form");
    const response = await acknowledge(viewOnly, {
      name: "Vic",
      proof: formProof("test-form-secret", viewGrant.tokenId),
    });
    expect(response.status).toBe(403);
    expect(world.acknowledged.size).toBe(0);
  });

  it("refuses cross-site posts, a missing or wrong form proof, and records nothing", async () => {
    const { acknowledge, world, tokenA, grantA } = setUp();
    const proof = formProof("test-form-secret", grantA.tokenId);
    const refused = [
      await acknowledge(
        tokenA,
        { name: "Eve", proof },
        { origin: "https://evil.example", "sec-fetch-site": "" },
      ),
      await acknowledge(tokenA, { name: "Eve", proof }, { origin: "null", "sec-fetch-site": "" }),
      await acknowledge(tokenA, { name: "Eve", proof }, { "sec-fetch-site": "cross-site" }),
      await acknowledge(tokenA, { name: "Eve", proof }, { "sec-fetch-site": "same-site" }),
      await acknowledge(tokenA, { name: "Eve" }),
      await acknowledge(tokenA, { name: "Eve", proof: formProof("another-secret", grantA.tokenId) }),
    ];
    expect(refused.map((response) => response.status)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(world.acknowledged.size).toBe(0);
    expect(world.accesses).toEqual([]);
  });

  it("asks for a name when none is given", async () => {
    const { acknowledge, world, tokenA, grantA } = setUp();
    const response = await acknowledge(tokenA, {
      name: "  ",
      proof: formProof("test-form-secret", grantA.tokenId),
    });
    expect(response.status).toBe(400);
    expect(world.acknowledged.size).toBe(0);
  });
});

describe("logs", () => {
  it("a failing port is logged by route and error, the token replaced", async () => {
    const { world, tokenA } = setUp();
    const app = createIncidentApp({
      ...world.deps,
      incidents: { load: async () => Promise.reject(new Error(`no item for /i/${tokenA}`)) },
    });
    const response = await app.request(`/i/${tokenA}`);
    expect(response.status).toBe(500);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(world.errors).toEqual([
      {
        message: "incident request failed",
        fields: { route: "/i/:token", error: "Error", message: "no item for /i/[token]" },
      },
    ]);
    printed.push(JSON.stringify(world.errors));
  });

  // Last in this file: everything printed or logged while the tests above ran.
  it("no token of this file appears in any output or log line", () => {
    expect(tokensMade.length).toBeGreaterThan(10);
    const output = printed.join("\n");
    for (const token of tokensMade) expect(output.includes(token), "a token was printed").toBe(false);
  });
});
