import { Match, Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { synthesizedStage } from "../support/stage-synth.js";

// One synth of the "example" stage, whose groups file (config/groups.example.json) the notices function bundles.
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

  it("may read and claim items, read alert records, publish alerts, tell ops and clear owed set-aside marks, nothing more", () => {
    const policy = idOf("AWS::IAM::Policy", /^NoticesServiceRoleDefaultPolicy/);
    const statements = (
      (resources[policy]?.Properties.PolicyDocument ?? { Statement: [] }) as {
        Statement: { Action: string | string[]; Resource: unknown; Condition?: unknown }[];
      }
    ).Statement.map((statement) => ({
      actions: [statement.Action].flat(),
      resource: statement.Resource,
      ...("Condition" in statement && { condition: statement.Condition }),
    }));
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
      // The set-aside sweep: the ops topic, and deleting in the owed marks' partitions alone.
      // (The topics share their key: its grant is one statement.)
      { actions: ["sns:Publish"], resource: { Ref: idOf("AWS::SNS::Topic", /^OpsTopic/) } },
      {
        actions: ["dynamodb:DeleteItem"],
        resource: arn(idOf("AWS::DynamoDB::Table", /^Table/)),
        condition: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["SETASIDEOWED#*"] } },
      },
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

describe("in a stage without a groups file (production)", () => {
  it("still runs every 5 minutes, to sweep the set-aside notices a crash left owed to ops", async () => {
    const production = Template.fromJSON(
      (await synthesizedStage("production")).template as unknown as Record<string, unknown>,
    );
    const functions = production.findResources("AWS::Lambda::Function", {
      Properties: { Handler: "packages/functions/src/notices.handler" },
    });
    const [id, fn] = Object.entries(functions)[0] ?? [];
    const { Environment } = (fn?.Properties ?? {}) as {
      Environment?: { Variables: Record<string, unknown> };
    };
    const variables = Environment?.Variables;
    expect(variables).not.toHaveProperty("GROUPS_FILE");
    expect(variables).toMatchObject({
      OPS_TOPIC_ARN: { Ref: expect.stringMatching(/^OpsTopic/) },
      DEVICE_CLOUD_ACCOUNTS_FILE: "accounts.json",
    });
    production.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(5 minutes)",
      Targets: [Match.objectLike({ Arn: arn(id as string) })],
    });
  });
});
