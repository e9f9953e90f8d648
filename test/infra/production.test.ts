import { Template } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { synthesize } from "../../infra/synth.js";

describe("a production stage", () => {
  it("protects the table, retains data and locks evidence for the configured years", async () => {
    const { assembly } = await synthesize({ stage: "production" });
    const stack = assembly.getStackByName("production-fleet-alerts-Pipeline");
    const template = Template.fromJSON(stack.template as Record<string, unknown>);
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
    expect(JSON.stringify(stack.template)).not.toContain("Custom::S3AutoDeleteObjects");
  });
});
