import { Match, Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_MAX_RECEIVES } from "../../packages/core/src/webhooks/config.js";
import { synthesizedStage } from "../support/stage-synth.js";

// One synth of the "example" stage, with cdk-nag's AwsSolutions checks.
type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
let template: Template;
let resources: Resources;
let nagErrors: string[];

beforeAll(async () => {
  const synthesized = await synthesizedStage("example");
  resources = synthesized.template.Resources;
  template = Template.fromJSON(synthesized.template as unknown as Record<string, unknown>);
  nagErrors = synthesized.nagErrors;
}, 180_000); // bundling every function takes a while on a shared machine

const idOf = (type: string, pattern: RegExp) =>
  Object.entries(resources).find(
    ([id, resource]) => resource.Type === type && pattern.test(id),
  )?.[0] as string;
const arn = (id: string) => ({ "Fn::GetAtt": [id, "Arn"] });
function statementsOf(role: RegExp) {
  const policy = Object.entries(resources).find(
    ([id, r]) => r.Type === "AWS::IAM::Policy" && role.test(id),
  )?.[1];
  if (!policy) throw new Error(`no policy ${role}`);
  return (policy.Properties.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement;
}

describe("webhook channel infrastructure", () => {
  it("has an encrypted, TLS-only queue whose jobs go to a DLQ after the last receive", () => {
    const dlq = idOf("AWS::SQS::Queue", /^WebhookDlq/);
    template.hasResourceProperties("AWS::SQS::Queue", {
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: arn(dlq), maxReceiveCount: WEBHOOK_MAX_RECEIVES },
      VisibilityTimeout: 360,
    });
    for (const queue of [/^WebhookQueue/, /^WebhookDlq/]) {
      const id = idOf("AWS::SQS::Queue", queue);
      template.hasResourceProperties("AWS::SQS::QueuePolicy", {
        Queues: [{ Ref: id }],
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({ Effect: "Deny", Condition: { Bool: { "aws:SecureTransport": "false" } } }),
          ]),
        },
      });
    }
  });

  it("alarms to the ops topic when the DLQ holds a job", () => {
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "ApproximateNumberOfMessagesVisible",
      Dimensions: [
        { Name: "QueueName", Value: { "Fn::GetAtt": [idOf("AWS::SQS::Queue", /^WebhookDlq/), "QueueName"] } },
      ],
      AlarmActions: [{ Ref: idOf("AWS::SNS::Topic", /^OpsTopic/) }],
    });
  });

  it("consumes its queue ten at a time with partial batch responses", () => {
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      EventSourceArn: arn(idOf("AWS::SQS::Queue", /^WebhookQueue/)),
      BatchSize: 10,
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
  });

  it("grants the webhook function only what it needs", () => {
    const statements = statementsOf(/^WebhookServiceRoleDefaultPolicy/);
    const byAction = (action: string) =>
      statements.filter((statement) => [statement.Action].flat().includes(action));
    expect(byAction("dynamodb:PutItem")).toEqual([
      expect.objectContaining({
        Resource: arn(idOf("AWS::DynamoDB::Table", /^Table/)),
        Condition: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["TARGET#*"] } },
      }),
    ]);
    expect(byAction("sqs:SendMessage").map(({ Resource }) => Resource)).toEqual([
      arn(idOf("AWS::SQS::Queue", /^WebhookDlq/)),
    ]);
    expect(byAction("sns:Publish").map(({ Resource }) => Resource)).toEqual([
      { Ref: idOf("AWS::SNS::Topic", /^OpsTopic/) },
    ]);
    const ssm = JSON.stringify(byAction("ssm:GetParameters").map(({ Resource }) => Resource));
    expect(ssm).toContain("/Secret/TARGET_*");
    expect(ssm).toContain("/.fallback/Secret/TARGET_*");
    expect(ssm).toContain("SHARE_LINK_SECRET");
    expect(ssm).not.toContain("DEVICE_CLOUD");
    const all = statements.flatMap((statement) => [statement.Action].flat() as string[]);
    expect(all.some((action) => action.endsWith("*"))).toBe(false);
  });

  it("lets the functions that publish alerts send webhook jobs", () => {
    const queue = arn(idOf("AWS::SQS::Queue", /^WebhookQueue/));
    for (const fn of [/^PollerServiceRoleDefaultPolicy/, /^ConfirmServiceRoleDefaultPolicy/]) {
      expect(JSON.stringify(statementsOf(fn))).toContain(JSON.stringify(queue));
    }
    template.hasResourceProperties("AWS::Lambda::Function", {
      Handler: Match.stringLikeRegexp("poll\\.handler$"),
      Environment: {
        Variables: Match.objectLike({ WEBHOOK_QUEUE_URL: { Ref: idOf("AWS::SQS::Queue", /^WebhookQueue/) } }),
      },
    });
  });

  it("passes cdk-nag's AwsSolutions checks", () => {
    expect(nagErrors).toEqual([]);
  });
});
