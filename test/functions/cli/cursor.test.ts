import { CursorStore } from "@fleet-alerts/core/cursor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { fleetAlerts } from "./run.js";

let emulators: Emulators;
let cursors: CursorStore;
beforeAll(async () => {
  emulators = await startEmulators();
  cursors = new CursorStore({ documents: emulators.clients.documents, tableName: emulators.tableName });
});
afterAll(() => emulators.close());

/** The CLI with the stage's table and AWS endpoint from the environment, as in a deployment shell. */
const cursor = (...args: string[]) =>
  fleetAlerts(["cursor", ...args], {
    // The SDK warns on Node.js 20 that its 2027 releases will need 22: true, and not this test's subject.
    env: { ...emulators.env(), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" },
  });

describe("fleet-alerts cursor", () => {
  it("shows, refuses an unconfirmed set, sets forward and back, and the poller's store agrees", async () => {
    // stdin is not a terminal: nobody can confirm, so nothing is written without --yes.
    const refused = await cursor("set", "1000500", "--account", "round-trip");
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toContain("account round-trip: no cursor; moving it to 1000500\n");
    expect(refused.stderr).toContain(
      "fleet-alerts: refusing to move the cursor unconfirmed: stdin is not a terminal (pass --yes)\n",
    );
    expect(await cursors.read("round-trip")).toBeUndefined();

    const first = await cursor("set", "1000500", "--account", "round-trip", "--yes");
    expect(first).toMatchObject({
      code: 0,
      stdout: "account round-trip: cursor set to 1000500 (events up to it will not be read)\n",
    });
    expect(await cursors.read("round-trip")).toBe(1000500n);

    const shown = await cursor("show", "--account", "round-trip");
    expect(shown.stdout).toMatch(
      /^account round-trip: cursor at 1000500 \(moved \d{4}-\d\d-\d\dT[\d:.]+Z\)\n$/,
    );

    const back = await cursor("set", "1000100", "--account", "round-trip", "--yes");
    expect(back).toMatchObject({ code: 0 });
    expect(back.stdout).toContain("cursor set to 1000100 (events after it will be read again;");
    expect(back.stderr).toContain("account round-trip: cursor at 1000500");
    // The poller moves on from the value set, with its own conditional update.
    expect(await cursors.advance("round-trip", 1000100n, 1000200n, Date.now(), 1)).toBe(true);
  });

  it("keeps serial numbers beyond 2^53 exact and each account apart", async () => {
    const [big, other] = await Promise.all([
      cursor("set", "98765432109876543210", "--account", "big", "--yes"),
      cursor("show", "--account", "south"),
    ]);
    expect(big.code).toBe(0);
    expect(await cursors.read("big")).toBe(98765432109876543210n);
    expect(other).toEqual({
      code: 0,
      stdout: "account south: no cursor yet (the first poll starts at the newest event)\n",
      stderr: "",
    });
  });

  it("assumes no account: --account is required unless exactly one is configured", async () => {
    const account = (id: string) => ({ id, baseUrl: "https://cloud.example", username: "u" });
    const env = { ...emulators.env(), AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true" };
    const [unnamed, two, one, unknown] = await Promise.all([
      cursor("show"),
      fleetAlerts(["cursor", "show"], {
        env: { ...env, DEVICE_CLOUD_ACCOUNTS: JSON.stringify([account("north"), account("south")]) },
      }),
      fleetAlerts(["cursor", "show"], {
        env: { ...env, DEVICE_CLOUD_ACCOUNTS: JSON.stringify([account("north")]) },
      }),
      fleetAlerts(["cursor", "show", "--account", "west"], {
        env: { ...env, DEVICE_CLOUD_ACCOUNTS: JSON.stringify([account("north")]) },
      }),
    ]);
    expect(unnamed).toMatchObject({
      code: 1,
      stderr: "fleet-alerts: --account is required (or FLEET_ALERTS_ACCOUNT)\n",
    });
    expect(two).toMatchObject({
      code: 1,
      stderr: "fleet-alerts: --account is required: configured are north, south\n",
    });
    expect(one).toMatchObject({
      code: 0,
      stdout: "account north: no cursor yet (the first poll starts at the newest event)\n",
    });
    expect(unknown).toMatchObject({
      code: 1,
      stderr: "fleet-alerts: unknown account west: configured are north\n",
    });
  });

  it("reports a missing table and a missing --table with exit code 1", async () => {
    const [missingTable, noTable] = await Promise.all([
      cursor("show", "--table", "no-such-table", "--account", "north"),
      fleetAlerts(["cursor", "show"], { env: { TABLE_NAME: undefined } }),
    ]);
    expect(missingTable.code).toBe(1);
    expect(missingTable.stderr).toBe(
      "fleet-alerts: no table no-such-table (check --table or TABLE_NAME, and the AWS region)\n",
    );
    expect(noTable.code).toBe(1);
    expect(noTable.stderr).toContain("error: required option '--table <name>' not specified");
  });
});
