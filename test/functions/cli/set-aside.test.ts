import { SetAsideStore } from "@fleet-alerts/core/setaside";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { fleetAlerts } from "./run.js";

let emulators: Emulators;
beforeAll(async () => {
  emulators = await startEmulators({ subscribeInbox: false });
  const store = new SetAsideStore({ documents: emulators.clients.documents, tableName: emulators.tableName });
  const entry = {
    account: "east",
    serialno: "1000123",
    // What the device cloud called it: it must not move the operator's cursor or forge a line.
    deviceid: "D\u001b[2J\rFORGED",
    ruleId: "crash",
    alertId: "east:1000123:crash",
    step: "evidence-job" as const,
    reason: "InvalidParameterValue: Message must be shorter than 65536 bytes.",
  };
  await store.add([entry], Date.parse("2026-03-29T10:00:00Z"));
  await store.markTold([entry], Date.parse("2026-03-29T10:00:01Z"));
});
afterAll(() => emulators.close());

const cli = (args: string[]) => fleetAlerts(args, { env: emulators.env() });

describe("fleet-alerts set-aside list", () => {
  it("lists an account's records with their step and AWS's reason, each cell shown safely on its line", async () => {
    const run = await cli(["set-aside", "list", "--account", "east"]);
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^SERIAL +RULE +STEP +TARGET +DEVICE +SET ASIDE AT +OPS TOLD +REASON$/);
    expect(lines[1]).toBe(
      "1000123  crash  evidence-job  -       D\\x1b[2J\\x0dFORGED  2026-03-29T10:00:00.000Z  2026-03-29T10:00:01.000Z  InvalidParameterValue: Message must be shorter than 65536 bytes.",
    );
  });

  it("says when an account has nothing set aside, and prints JSON on request", async () => {
    expect((await cli(["set-aside", "list", "--account", "west"])).stdout).toBe(
      "account west: nothing set aside\n",
    );
    const json = JSON.parse((await cli(["set-aside", "list", "--account", "east", "--json"])).stdout);
    expect(json).toEqual([expect.objectContaining({ deviceid: "D\u001b[2J\rFORGED", step: "evidence-job" })]);
  });

  it("refuses a --limit outside 1 to 1,000, the most one Query of the listing asks for", async () => {
    const [none, tooMany] = await Promise.all([
      cli(["set-aside", "list", "--account", "east", "--limit", "0"]),
      cli(["set-aside", "list", "--account", "east", "--limit", "1001"]),
    ]);
    for (const run of [none, tooMany]) {
      expect(run).toMatchObject({ code: 1, stdout: "" });
      expect(run.stderr).toContain("expected a whole number from 1 to 1000");
    }
  });
});
