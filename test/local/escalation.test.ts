import { randomBytes } from "node:crypto";
import { mkdtemp, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ObservationOf } from "@fleet-alerts/core";
import { loadGroupsFile } from "@fleet-alerts/core/routing";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_GROUPS_FILE, forAccounts, withWebhookTarget } from "../../packages/local/src/groups.js";
import { humanView } from "../../packages/local/src/human-view.js";
import { jsonLine } from "../../packages/local/src/json-view.js";
import { type LocalPipeline, startLocalPipeline } from "../../packages/local/src/pipeline.js";
import { emptyTotals, type LocalLine } from "../../packages/local/src/report.js";

// A level every simulated minute, on a clock 15 times faster: level 1 of an alert comes 4 s after it
// is published, level 2 after 8 s. Long enough to acknowledge an alert before its last level.
const SPEED = 15;
const RULES = {
  rules: [
    {
      id: "crash",
      events: ["GSensor"],
      severity: "critical",
      cooldownSeconds: 0,
      escalate: { after: "1m", levels: 2 },
    },
  ],
};
const WAIT_MS = 30_000;

type Line<T extends LocalLine["type"]> = Extract<LocalLine, { type: T }>;

let pipeline: LocalPipeline;
let stopping: Promise<unknown> | undefined;
/** Stops the pipeline once, whether the test gets there or fails before. */
const stop = () => {
  stopping ??= pipeline?.stop();
  return stopping;
};
/** What `npm start -- --json` prints, parsed back, in order. */
const printed: LocalLine[] = [];
/** What the --webhook receiver got, with its own clock's time of receipt. */
const posts: { body: string; headers: IncomingHttpHeaders; atMs: number }[] = [];
const WEBHOOK_SECRET = `whsec_${randomBytes(32).toString("base64")}`;
const receiver = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => {
    body += chunk.toString("utf8");
  });
  request.on("end", () => {
    posts.push({ body, headers: request.headers, atMs: Date.now() });
    response.end();
  });
});

beforeAll(async () => {
  const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-escalation-"));
  const rulesFile = join(folder, "rules.json");
  await writeFile(rulesFile, JSON.stringify(RULES));
  pipeline = await startLocalPipeline(
    {
      devices: 4,
      seed: 7,
      speed: SPEED,
      pollEverySeconds: 0.5,
      evidenceDir: join(folder, "evidence"),
      fleetTimeZone: "UTC",
      rulesFile,
    },
    (line) => {
      const text = jsonLine(line);
      if (text !== undefined) printed.push(JSON.parse(text) as LocalLine);
    },
  );
}, WAIT_MS);
afterAll(stop);

/** The printed lines of a type about one alert. */
function linesOf<T extends LocalLine["type"]>(type: T, alertId: string): Line<T>[] {
  return printed.filter(
    (line): line is Line<T> => line.type === type && "alertId" in line && line.alertId === alertId,
  );
}

/** Polls the printed lines until `found` returns something; fails with `what` after WAIT_MS. */
async function waitFor<T>(what: string, found: () => T | undefined): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = found();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`no ${what} within ${WAIT_MS / 1000} s`);
    await sleep(50);
  }
}

/** A G-sensor event on a device now, once the poller has set its cursor; its published alert line. */
async function crash(deviceIndex: number): Promise<Line<"alert-published">> {
  await waitFor("first poll", () => printed.find((line) => line.type === "poll-summary"));
  const simulator = pipeline.simulators.get("north");
  if (!simulator) throw new Error("the local mode runs on its simulators here");
  const deviceid = simulator.control.devices()[deviceIndex]?.deviceid;
  const event = simulator.control.injectEvent({ appdevid: 16, ...(deviceid && { deviceid }) });
  const alertId = `north:${event.serialno}:crash`;
  return waitFor(`alert ${alertId}`, () => linesOf("alert-published", alertId)[0]);
}

/** What a browser does on the incident page: reads it, then posts its acknowledgement form. */
async function acknowledgeInBrowser(link: string, name: string) {
  const page = await fetch(link);
  const html = await page.text();
  const action = /<form class="acknowledge" method="post" action="([^"]+)">/.exec(html)?.[1];
  const proof = /<input type="hidden" name="proof" value="([^"]+)">/.exec(html)?.[1];
  if (!action || !proof) throw new Error("the page has no acknowledgement form");
  const posted = await fetch(new URL(action, link), {
    method: "POST",
    redirect: "manual",
    // Same origin, as the page's own form: under its no-referrer policy the browser says `Origin: null`.
    headers: { origin: "null", "sec-fetch-site": "same-origin" },
    body: new URLSearchParams({ proof, name, note: "called the driver" }),
  });
  return { page: { status: page.status, html }, posted };
}

describe("escalation in the local mode", () => {
  it("links each alert to its incident page, escalates an unacknowledged one once per level, and stops when it is acknowledged", async () => {
    const started = await waitFor("started line", () => printed.find((line) => line.type === "started"));
    const handled = await crash(1);
    // Published after `handled`, so its last level falls due after handled's would have: once it is
    // seen, a level of `handled` sent in spite of the acknowledgement would have been seen too.
    const ignored = await crash(0);
    const linkPattern = new RegExp(`^${started.incident.replaceAll(".", "\\.")}/i/[A-Za-z0-9_-]{22}$`);
    expect(started.incident).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ignored.link).toMatch(linkPattern);
    expect(handled.link).toMatch(linkPattern);
    expect(handled.link).not.toBe(ignored.link);

    // Someone opens the handled alert's link and acknowledges it.
    const { page, posted } = await acknowledgeInBrowser(handled.link as string, "Dana");
    expect(page.status).toBe(200);
    expect(page.html).toContain(handled.deviceid);
    expect(posted.status).toBe(303);
    expect(new URL(posted.headers.get("location") as string, handled.link).href).toBe(handled.link);
    const acknowledged = await waitFor("acknowledgement", () =>
      linesOf("alert-acknowledged", handled.alertId).at(0),
    );
    expect(acknowledged.tokenId).toMatch(/\w/);
    expect(await (await fetch(handled.link as string)).text()).toContain(
      "Acknowledged by <strong>Dana</strong>",
    );

    // The level due after the acknowledgement is not sent, nor any later one.
    const cancelled = await waitFor("cancelled level", () =>
      linesOf("escalation-cancelled", handled.alertId).at(0),
    );
    const sentBefore = linesOf("alert-escalated", handled.alertId).map((line) => line.level);
    expect(sentBefore).toEqual(Array.from({ length: cancelled.level - 1 }, (_, index) => index + 1));
    expect(cancelled).toMatchObject({ level: sentBefore.length + 1, reason: "acknowledged" });

    // The other alert goes to each level, once, with its link; the acknowledged one to none after.
    await waitFor("level 2", () =>
      linesOf("alert-escalated", ignored.alertId).find((line) => line.level === 2),
    );
    // Stopped, every line is in: what follows holds for the whole run.
    await stop();
    const escalated = linesOf("alert-escalated", ignored.alertId);
    expect(
      escalated.map(({ level, levels, unacknowledgedSeconds, link }) => ({
        level,
        levels,
        unacknowledgedSeconds,
        link,
      })),
    ).toEqual([
      { level: 1, levels: 2, unacknowledgedSeconds: 60, link: ignored.link },
      { level: 2, levels: 2, unacknowledgedSeconds: 120, link: ignored.link },
    ]);
    expect(linesOf("escalation-cancelled", ignored.alertId)).toEqual([]);
    expect(linesOf("alert-escalated", handled.alertId).map((line) => line.level)).toEqual(sentBefore);
    expect(linesOf("alert-acknowledged", handled.alertId)).toHaveLength(1);
    expect(linesOf("escalation-cancelled", handled.alertId)).toHaveLength(1);
    expect(printed.filter((line) => line.type === "problem")).toEqual([]);

    // The live view shows the same: the level and the link to open.
    expect(humanView(escalated[1] as ObservationOf<"alert-escalated">, emptyTotals(), "t").print).toBe(
      `t ESCALATED crash #${ignored.serialno} device ${ignored.deviceid} to level 2 of 2: not acknowledged after 2 min\n         Link: ${ignored.link}`,
    );
  }, 60_000);
});

describe("the local mode's --webhook target", () => {
  it("gets every alert, signed so that a receiver verifies it on its own clock, not the simulated one", async () => {
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-webhook-"));
    const rulesFile = join(folder, "rules.json");
    await writeFile(rulesFile, JSON.stringify(RULES));
    const published: string[] = [];
    // Ten simulated minutes a second: past Standard Webhooks' five-minute tolerance at once.
    let local: LocalPipeline | undefined;
    local = await startLocalPipeline(
      {
        accounts: ["north"],
        devices: 2,
        seed: 11,
        speed: 600,
        pollEverySeconds: 0.5,
        evidenceDir: join(folder, "evidence"),
        fleetTimeZone: "UTC",
        rulesFile,
        // As `npm start -- --webhook URL` with WEBHOOK_SECRET set.
        groups: withWebhookTarget(forAccounts(await loadGroupsFile(DEFAULT_GROUPS_FILE), ["north"])),
        webhook: {
          url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`,
          secret: WEBHOOK_SECRET,
          secretGenerated: false,
        },
      },
      (line) => {
        if (line.type === "alert-published") published.push(line.alertId);
        // A crash on every poll until two alerts have reached the receiver.
        if (line.type === "poll-summary" && posts.length < 2)
          local?.simulators.get("north")?.control.injectEvent({ appdevid: 16 });
      },
    );
    try {
      for (const deadline = Date.now() + WAIT_MS; posts.length < 2; await sleep(50))
        if (Date.now() > deadline) throw new Error("fewer than two webhook posts within the wait");
    } finally {
      await local?.stop();
      receiver.close();
    }
    const ids = posts.map(({ body, headers }) => {
      // Throws on a bad signature, or a webhook-timestamp five minutes from the receiver's clock.
      const payload = new Webhook(WEBHOOK_SECRET).verify(body, headers as Record<string, string>) as {
        data: { alertId: string };
      };
      return payload.data.alertId;
    });
    for (const { headers, atMs } of posts)
      expect(Math.abs(Number(headers["webhook-timestamp"]) * 1000 - atMs)).toBeLessThan(60_000);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => published.includes(id))).toBe(true);
  }, 60_000);
});
