import { Match, Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { synthesizedStage } from "../support/stage-synth.js";

// One synth of the "example" stage, whose groups file (config/groups.example.json) adds the notices function.
let template: Template;
let resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
let nagErrors: string[];

beforeAll(async () => {
  const synthesized = await synthesizedStage("example");
  resources = synthesized.template.Resources;
  template = Template.fromJSON(synthesized.template as unknown as Record<string, unknown>);
  nagErrors = synthesized.nagErrors;
}, 120_000); // bundles every function

const idOf = (type: string, pattern: RegExp) =>
  Object.entries(resources).find(
    ([id, resource]) => resource.Type === type && pattern.test(id),
  )?.[0] as string;
const arn = (id: string) => ({ "Fn::GetAtt": [id, "Arn"] });

describe("the notices function", () => {
  it("runs every 5 minutes with the bundled groups file", () => {
    const fn = idOf("AWS::Lambda::Function", /^Notices[0-9A-F]{8}$/);
    template.hasResourceProperties("AWS::Lambda::Function", {
      Handler: "packages/functions/src/notices.handler",
      Timeout: 120,
      Environment: {
        Variables: Match.objectLike({ GROUPS_FILE: "groups.json", FLEET_TIME_ZONE: "Europe/Berlin" }),
      },
    });
    template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(5 minutes)",
      Targets: [Match.objectLike({ Arn: arn(fn) })],
    });
  });

  it("may read and claim items, read alert records and publish alerts, nothing more", () => {
    const policy = idOf("AWS::IAM::Policy", /^NoticesServiceRoleDefaultPolicy/);
    const statements = (
      (resources[policy]?.Properties.PolicyDocument ?? { Statement: [] }) as {
        Statement: { Action: string | string[]; Resource: unknown }[];
      }
    ).Statement.map((statement) => ({ actions: [statement.Action].flat(), resource: statement.Resource }));
    const ssm = statements.filter((statement) => statement.actions.includes("ssm:GetParameters"));
    // Only the share-link secret: no device-cloud credentials.
    expect(ssm).toHaveLength(1);
    expect(JSON.stringify(ssm[0]?.resource)).toContain("Secret/SHARE_LINK_SECRET/value");
    expect(statements.filter((statement) => !ssm.includes(statement))).toEqual([
      {
        actions: [
          "dynamodb:Query",
          "dynamodb:GetItem",
          "dynamodb:PutItem",
          "dynamodb:UpdateItem",
          "dynamodb:BatchGetItem",
        ],
        resource: arn(idOf("AWS::DynamoDB::Table", /^Table/)),
      },
      { actions: ["sns:Publish"], resource: { Ref: idOf("AWS::SNS::Topic", /^AlertsTopic/) } },
      { actions: ["kms:GenerateDataKey", "kms:Decrypt"], resource: arn(idOf("AWS::KMS::Key", /^TopicKey/)) },
    ]);
  });

  it("alarms ops when it fails", () => {
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "Errors",
      Dimensions: [
        { Name: "FunctionName", Value: { Ref: idOf("AWS::Lambda::Function", /^Notices[0-9A-F]{8}$/) } },
      ],
      AlarmActions: [{ Ref: idOf("AWS::SNS::Topic", /^OpsTopic/) }],
    });
  });

  it("passes cdk-nag's AwsSolutions checks", () => {
    expect(nagErrors).toEqual([]);
  });
});
