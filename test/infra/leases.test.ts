import { Duration } from "aws-cdk-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { CLAIM_LEASE_MARGIN, CLAIM_LEASES, checkClaimLeases } from "../../infra/leases.js";
import { synthesizedStage } from "../support/stage-synth.js";

let resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
beforeAll(async () => {
  resources = (await synthesizedStage("example")).template.Resources;
});

describe("claim leases", () => {
  it("each outlasts the timeout of every function that may hold its claim, with the margin", () => {
    expect(() => checkClaimLeases()).not.toThrow();
    for (const { leaseMs, holders } of CLAIM_LEASES)
      for (const timeout of Object.values(holders))
        expect(timeout.toMilliseconds() + CLAIM_LEASE_MARGIN.toMilliseconds()).toBeLessThanOrEqual(leaseMs);
  });

  it("names the holders' timeouts as the stack deploys them", () => {
    for (const { holders } of CLAIM_LEASES)
      for (const [holder, timeout] of Object.entries(holders)) {
        const fn = Object.entries(resources).find(
          ([id, resource]) =>
            resource.Type === "AWS::Lambda::Function" && new RegExp(`^${holder}[0-9A-F]{8}$`).test(id),
        )?.[1];
        expect(fn?.Properties.Timeout, holder).toBe(timeout.toSeconds());
      }
  });

  it("refuses the synth when a lease could end while its holder still runs", () => {
    const short = { lease: "SHORT_LEASE_MS", leaseMs: 60_000, holders: { Notices: Duration.seconds(30) } };
    expect(() => checkClaimLeases([short])).toThrow(
      "SHORT_LEASE_MS (60 s) must outlast the Notices function's timeout (30 s) by 60 s",
    );
  });
});
