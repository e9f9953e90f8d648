import { AlertStore, alertIdOf } from "@fleet-alerts/core/alerts";
import { AccessAudit, ShareStore } from "@fleet-alerts/core/share";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { fleetAlerts, type Run } from "./run.js";

const BASE_URL = "https://alerts.example.test/";
const TOKEN_IN_URL = /^https:\/\/alerts\.example\.test\/i\/([A-Za-z0-9_-]{22})$/m;

let emulators: Emulators;
let shares: ShareStore;
let audit: AccessAudit;
const alertId = alertIdOf("east", 7001n, "overspeed");
beforeAll(async () => {
  emulators = await startEmulators();
  const table = { documents: emulators.clients.documents, tableName: emulators.tableName };
  shares = new ShareStore(table);
  audit = new AccessAudit(table);
  await new AlertStore(table).record(
    {
      account: "east",
      serialno: 7001n,
      ruleId: "overspeed",
      deviceid: "dev-1",
      appdevid: 1,
      eventtime: "2026-03-01 08:00:00",
      severity: "critical",
      status: "stale",
    },
    Date.now(),
  );
});
afterAll(() => emulators.close());

/** The CLI with the stage's table, endpoint and public address from the environment, as deployed. */
const cli = (args: string[], env: Record<string, string | undefined> = {}) =>
  fleetAlerts(args, {
    env: { ...emulators.env(), PUBLIC_BASE_URL: BASE_URL, SHARE_MAX_DAYS: undefined, ...env },
  });

function tokenOf(run: Run): string {
  const token = TOKEN_IN_URL.exec(run.stdout)?.[1];
  if (token === undefined) throw new Error(`no link in ${JSON.stringify(run)}`);
  return token;
}

describe("fleet-alerts share and audit", () => {
  it("creates a link printed once, lists and audits it without its token, and revokes it", async () => {
    const created = await cli([
      "share",
      "create",
      alertId,
      "--expires",
      "72h",
      "--scope",
      "view+ack",
      "--by",
      "dana",
    ]);
    expect(created).toMatchObject({ code: 0, stderr: "" });
    const token = tokenOf(created);
    const grant = await shares.resolve(token, Date.now());
    expect(grant).toMatchObject({ alertId, scope: "view+ack", createdBy: "dana" });
    const tokenId = grant?.tokenId ?? "";
    expect(created.stdout).toMatch(
      new RegExp(
        `^expires \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(in 3 d\\), scope view\\+ack, token id ${tokenId}\\n$`,
        "m",
      ),
    );
    expect(Math.abs((grant?.expiresAtMs ?? 0) - Date.now() - 72 * 3_600_000)).toBeLessThan(60_000);

    await audit.record({
      alertId,
      tokenId,
      action: "view",
      userAgent: "Mozilla/5.0 (Phone)",
      atMs: Date.now(),
    });
    const [listed, audited] = await Promise.all([cli(["share", "list", alertId]), cli(["audit", alertId])]);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^TOKEN ID +SCOPE +EXPIRES +BY +CREATED\n/);
    expect(listed.stdout).toContain(`${tokenId}  view+ack  `);
    expect(audited.code).toBe(0);
    expect(audited.stdout).toMatch(/^TIME +TOKEN ID +ACTION +USER AGENT +REQUESTED BY: REASON\n/);
    expect(audited.stdout).toMatch(new RegExp(`Z  ${tokenId}  view +"Mozilla/5.0 \\(Phone\\)"\\n$`));
    for (const run of [listed, audited]) expect(run.stdout + run.stderr).not.toContain(token);

    const revoked = await cli(["share", "revoke", alertId, tokenId]);
    expect(revoked).toMatchObject({
      code: 0,
      stdout: `revoked ${tokenId}: the link to ${alertId} no longer opens\n`,
    });
    expect(await shares.resolve(token, Date.now())).toBeUndefined();
    expect((await cli(["share", "list", alertId])).stdout).toBe(`no live share links for ${alertId}\n`);
    const again = await cli(["share", "revoke", alertId, "0123456789abcdef"]);
    expect(again).toMatchObject({ code: 1, stdout: "" });
    expect(again.stderr).toContain(`${alertId} has no share link 0123456789abcdef`);
  }, 60_000);

  it("caps --expires at the stage's longest link and says so; defaults to that longest", async () => {
    const capped = await cli(["share", "create", alertId, "--expires", "90d", "--by", "dana"], {
      SHARE_MAX_DAYS: "14",
    });
    expect(capped.code).toBe(0);
    expect(capped.stderr).toBe("--expires 90 d is over this stage's longest link: capped at 14 d\n");
    expect(capped.stdout).toContain("(in 14 d), scope view,");
    const grant = await shares.resolve(tokenOf(capped), Date.now());
    expect(Math.abs((grant?.expiresAtMs ?? 0) - Date.now() - 14 * 86_400_000)).toBeLessThan(60_000);

    const byDefault = await cli(["share", "create", alertId, "--by", "dana"]);
    expect(byDefault).toMatchObject({ code: 0, stderr: "" });
    expect(byDefault.stdout).toContain("(in 30 d), scope view,");
    const minutes = await cli(["share", "create", alertId, "--expires", "90m", "--max-expires", "1"]);
    expect(minutes.stdout).toContain("(in 1 h 30 min)");
  }, 60_000);

  it("refuses a bad alert id, an unknown alert, a bad duration and a missing base URL, creating nothing", async () => {
    const other = alertIdOf("east", 7002n, "overspeed");
    const [badId, unknown, badDuration, noBase] = await Promise.all([
      cli(["share", "create", "east:7001"]),
      cli(["share", "create", other]),
      cli(["share", "create", alertId, "--expires", "3w"]),
      cli(["share", "create", alertId], { PUBLIC_BASE_URL: undefined }),
    ]);
    for (const run of [badId, unknown, badDuration, noBase])
      expect(run).toMatchObject({ code: 1, stdout: "" });
    expect(badId.stderr).toContain('not an alert id: "east:7001"');
    expect(unknown.stderr).toContain(`fleet-alerts: no alert ${other} in ${emulators.tableName}`);
    expect(badDuration.stderr).toContain("expected a duration of a minute or more, such as 90m, 72h or 30d");
    expect(noBase.stderr).toContain("--base-url <url>");
    expect((await shares.list(other, Date.now(), { limit: 10 })).entries).toEqual([]);
    expect((await cli(["audit", other])).stdout).toBe(`no accesses recorded for ${other}\n`);
  }, 60_000);
});

describe("fleet-alerts audit and share list, a page at a time", () => {
  it("print --limit lines and the command that prints the next page, until the last", async () => {
    const paged = alertIdOf("east", 7003n, "overspeed");
    for (let second = 0; second < 5; second++)
      await audit.record({
        alertId: paged,
        tokenId: "0123456789abcdef",
        action: "view",
        userAgent: `agent ${second}`,
        atMs: Date.parse("2026-03-01T08:00:00Z") + second * 1000,
      });
    const agents: string[] = [];
    let args = ["audit", paged, "--limit", "2"];
    for (let page = 0; page < 3; page++) {
      const run = await cli(args);
      expect(run).toMatchObject({ code: 0, stderr: "" });
      agents.push(...[...run.stdout.matchAll(/"(agent \d)"/g)].map((match) => match[1] as string));
      const more = /^more: fleet-alerts (.*)$/m.exec(run.stdout)?.[1];
      if (page < 2)
        expect(more).toMatch(
          new RegExp(`^audit ${paged} --limit 2 --after 2026-03-01T08:00:0\\d\\.000Z#[0-9a-f]{4}$`),
        );
      else expect(more).toBeUndefined();
      args = more?.split(" ") ?? [];
    }
    expect(agents).toEqual(["agent 0", "agent 1", "agent 2", "agent 3", "agent 4"]);

    const [tooMany, none] = await Promise.all([
      cli(["audit", paged, "--limit", "1001"]),
      cli(["share", "list", paged, "--limit", "0"]),
    ]);
    for (const run of [tooMany, none]) {
      expect(run).toMatchObject({ code: 1, stdout: "" });
      expect(run.stderr).toContain("expected a whole number from 1 to 1000");
    }
  }, 60_000);
});
