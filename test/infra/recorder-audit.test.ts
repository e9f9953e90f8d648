import { Match, Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { stageConfigSchema } from "../../infra/stage-config.js";
import { synthesizedStage } from "../support/stage-synth.js";

// One synth of the "example" stage (its accounts north and south), shared with the other infra tests.
let template: Template;
let resources: Record<string, { Type: string; Properties: Record<string, unknown> }>;
let nagErrors: string[];

beforeAll(async () => {
  const synthesized = await synthesizedStage("example");
  resources = synthesized.template.Resources;
  template = Template.fromJSON(synthesized.template as unknown as Record<string, unknown>);
  nagErrors = synthesized.nagErrors;
}, 120_000);

const idOf = (type: string, pattern: RegExp) =>
  Object.entries(resources).find(
    ([id, resource]) => resource.Type === type && pattern.test(id),
  )?.[0] as string;
const arn = (id: string) => ({ "Fn::GetAtt": [id, "Arn"] });

describe("the recorder audit", () => {
  it("has defaults a stage need not write: daily periods, hourly runs, 10-minute gaps, 1,000 calls a run", () => {
    expect(stageConfigSchema.parse({})).toMatchObject({
      recorderAudit: {
        everyHours: 24,
        runEveryMinutes: 60,
        gapMinutes: 10,
        callsPerRun: 1000,
        offlineDays: 3,
      },
      cardRetention: { byDeviceType: [] },
    });
    expect(stageConfigSchema.safeParse({ recorderAudit: { everyHours: 5 } }).error?.issues[0]?.message).toBe(
      "must be 1, 2, 3, 4, 6, 8, 12 or 24",
    );
  });

  it("runs per account every hour, with the stage's settings and the bundled accounts", () => {
    const fn = idOf("AWS::Lambda::Function", /^RecorderAudit[0-9A-F]{8}$/);
    template.hasResourceProperties("AWS::Lambda::Function", {
      Handler: "packages/functions/src/recorder-audit.handler",
      Timeout: 240,
      ReservedConcurrentExecutions: 2,
      Environment: {
        Variables: Match.objectLike({
          DEVICE_CLOUD_ACCOUNTS_FILE: "accounts.json",
          RECORDER_AUDIT: JSON.stringify({
            everyHours: 24,
            runEveryMinutes: 60,
            gapMinutes: 10,
            callsPerRun: 1000,
            offlineDays: 3,
          }),
        }),
      },
    });
    const schedules = Object.values(resources).filter(
      (resource) =>
        resource.Type === "AWS::Events::Rule" &&
        JSON.stringify(resource.Properties.Targets).includes(JSON.stringify(arn(fn))),
    );
    expect(schedules.map((rule) => rule.Properties.ScheduleExpression)).toEqual([
      "rate(1 hour)",
      "rate(1 hour)",
    ]);
    expect(
      schedules.map((rule) => JSON.parse(String((rule.Properties.Targets as { Input: string }[])[0]?.Input))),
    ).toEqual([{ account: "north" }, { account: "south" }]);
  });

  it("may read and write items, publish alerts, tell ops, send webhook jobs and read the accounts' secrets: nothing more", () => {
    const policy = idOf("AWS::IAM::Policy", /^RecorderAuditServiceRoleDefaultPolicy/);
    const statements = (
      (resources[policy]?.Properties.PolicyDocument ?? { Statement: [] }) as {
        Statement: { Action: string | string[] }[];
      }
    ).Statement.map((statement) => [statement.Action].flat());
    expect(statements.flat().sort()).toEqual(
      [
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:UpdateItem",
        "dynamodb:Query",
        "sns:Publish",
        "sns:Publish",
        "kms:Decrypt",
        "kms:GenerateDataKey",
        "ssm:GetParameters",
        "ssm:GetParameters",
        "sqs:SendMessage",
      ].sort(),
    );
    expect(nagErrors.filter((error) => error.includes("RecorderAudit"))).toEqual([]);
  });
});
