import { rm, writeFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { synthesize } from "../../infra/synth.js";
import { recipientId } from "../../packages/core/src/routing/recipients.js";

// A hundred depots on one stage (one synth): each group's recipients are subscriptions of the
// alerts topic, one per distinct address or number, within SNS's 200 filter policies per topic
// and CloudFormation's 500 resources per stack.
const STAGE = "routing100";
const GROUPS = "config/groups.routing100.test.json";
const SMS_GROUPS = 60;

let resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;

beforeAll(async () => {
  const depots = Array.from({ length: 99 }, (_, index) => ({
    name: `depot-${index}`,
    // Everyone's dispatcher is in every group: one subscription all the same.
    email: [`depot-${index}@example.com`, "dispatch@example.com"],
    sms: index < SMS_GROUPS ? [`+49151000${String(index).padStart(5, "0")}`] : [],
    select: { vehiclePattern: `D${index}-.*` },
  }));
  const critical = {
    name: "all-critical",
    email: ["dispatch@example.com"],
    select: { minSeverity: "critical" },
  };
  await writeFile(GROUPS, JSON.stringify({ groups: [...depots, critical] }));
  await writeFile(
    `infra/stages/${STAGE}.json`,
    JSON.stringify({ groupsFile: GROUPS, opsEmails: ["ops@example.com"], smsMonthlyBudgetUsd: 20 }),
  );
  const { assembly } = await synthesize({ stage: STAGE });
  resources = assembly.getStackByName(`${STAGE}-fleet-alerts-Pipeline`).template.Resources;
});
afterAll(async () => {
  for (const file of [GROUPS, `infra/stages/${STAGE}.json`]) await rm(file, { force: true });
});

describe("routing of a hundred groups", () => {
  it("subscribes each distinct recipient once, filtered on its id, plus ops on unrouted", () => {
    const alertsTopic = Object.entries(resources).find(
      ([id, resource]) => resource.Type === "AWS::SNS::Topic" && id.startsWith("AlertsTopic"),
    )?.[0];
    const subscriptions = Object.values(resources)
      .filter((resource) => resource.Type === "AWS::SNS::Subscription")
      .map((resource) => resource.Properties)
      .filter((properties) => JSON.stringify(properties.TopicArn) === JSON.stringify({ Ref: alertsTopic }));
    // 99 depots' own addresses, the dispatcher (in all 100 groups), 60 numbers, ops.
    expect(subscriptions).toHaveLength(99 + 1 + SMS_GROUPS + 1);
    const policies = subscriptions.map((properties) => JSON.stringify(properties.FilterPolicy));
    expect(new Set(policies).size).toBe(subscriptions.length);
    expect(policies.length).toBeLessThanOrEqual(200);
    expect(subscriptions).toContainEqual(
      expect.objectContaining({
        Protocol: "email",
        Endpoint: "dispatch@example.com",
        FilterPolicy: { to: [recipientId("email", "dispatch@example.com")] },
      }),
    );
    expect(subscriptions).toContainEqual(
      expect.objectContaining({
        Protocol: "sms",
        FilterPolicy: { to: [recipientId("sms", "+4915100000007")] },
      }),
    );
  });

  it("stays well within CloudFormation's 500 resources per stack", () => {
    expect(Object.keys(resources).length).toBeLessThan(500);
  });

  it("alarms on SMS spend at the stage's budget", () => {
    const alarm = Object.values(resources).find(
      (resource) =>
        resource.Type === "AWS::CloudWatch::Alarm" &&
        resource.Properties.MetricName === "SMSMonthToDateSpentUSD",
    );
    expect(alarm?.Properties).toMatchObject({ Namespace: "AWS/SNS", Threshold: 20 });
  });
});
