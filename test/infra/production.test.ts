import { Match, Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { type SynthesizedStage, synthesizedStage } from "../support/stage-synth.js";

let stack: SynthesizedStage["template"];
let template: Template;
beforeAll(async () => {
  stack = (await synthesizedStage("production")).template;
  template = Template.fromJSON(stack as unknown as Record<string, unknown>);
});

const poller = () => {
  const found = Object.values(stack.Resources).find(
    (resource) =>
      resource.Type === "AWS::Lambda::Function" &&
      resource.Properties.Handler === "packages/functions/src/poll.handler",
  );
  if (!found) throw new Error("no poller in the production stack");
  return found.Properties as {
    Timeout: number;
    MemorySize: number;
    ReservedConcurrentExecutions: number;
    Environment: { Variables: object };
  };
};

describe("a production stage", () => {
  it("protects the table, retains data and locks evidence for the configured years", () => {
    template.hasResource("AWS::DynamoDB::Table", {
      Properties: { DeletionProtectionEnabled: true },
      DeletionPolicy: "Retain",
    });
    template.hasResourceProperties("AWS::S3::Bucket", {
      ObjectLockConfiguration: {
        ObjectLockEnabled: "Enabled",
        Rule: { DefaultRetention: { Mode: "COMPLIANCE", Days: 2555 } },
      },
    });
    template.hasResource("AWS::KMS::Key", { DeletionPolicy: "Retain" });
    // Without subscriptions configured, the topics exist and nobody is subscribed.
    template.resourceCountIs("AWS::SNS::Subscription", 0);
    // A production staging bucket is not emptied by a custom resource on removal.
    expect(JSON.stringify(stack)).not.toContain("Custom::S3AutoDeleteObjects");
  });

  // The latency mode npm run bench chose (section 3): the cheapest whose p95 was within 6 s at no
  // more than 5 USD a month per account, priced at this memory (docs/PERFORMANCE.md "Latency modes", and
  // docs/deploy.md "Latency"). A change here is a change of that table's row.
  it("polls every 5 seconds, one invocation a poll, timed by the poll-timer queue, at the memory the bench priced", () => {
    // The watchdog: each minute it polls and starts the minute's chain.
    template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(1 minute)",
      Targets: [Match.objectLike({ Input: JSON.stringify({ account: "fleet" }) })],
    });
    expect(poller()).toMatchObject({ Timeout: 60, MemorySize: 128, ReservedConcurrentExecutions: 3 });
    expect(poller().Environment.Variables).toMatchObject({
      POLL_EVERY_SECONDS: "5",
      POLL_TIMER_QUEUE_URL: { Ref: expect.stringMatching(/^PollTimerQueue/) },
    });
    expect(poller().Environment.Variables).not.toHaveProperty("DEADLINE_MARGIN_SECONDS");
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      BatchSize: 10,
      ScalingConfig: { MaximumConcurrency: 2 },
    });
  });
});
