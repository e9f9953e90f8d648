import { Template } from "aws-cdk-lib/assertions";
import { describe, expect, it } from "vitest";
import { synthesize } from "../../infra/synth.js";

describe("offline synthesis", () => {
  it("synthesizes the app to CloudFormation with no AWS credentials or network", async () => {
    const { assembly } = await synthesize({ stage: "test" });
    expect(assembly.stacks.map((stack) => stack.stackName)).toEqual(["test-fleet-alerts-Pipeline"]);
    const stack = assembly.getStackByName("test-fleet-alerts-Pipeline");
    const template = Template.fromJSON(stack.template as Record<string, unknown>);
    template.hasOutput("Stage", { Value: "test" });
    // A stage without a base URL or custom domain: links point at the HTTP API's own endpoint, and
    // the default throttle applies.
    const [apiId] = Object.keys(template.findResources("AWS::ApiGatewayV2::Api"));
    template.hasOutput("IncidentBaseUrl", { Value: { "Fn::GetAtt": [apiId, "ApiEndpoint"] } });
    template.resourceCountIs("AWS::ApiGatewayV2::DomainName", 0);
    // What `share create` caps links to, read from the outputs with the base URL (docs/operate.md, "Before you start").
    template.hasOutput("ShareMaxDays", { Value: "30" });
    template.hasResourceProperties("AWS::ApiGatewayV2::Stage", {
      DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
    });
  });
});
