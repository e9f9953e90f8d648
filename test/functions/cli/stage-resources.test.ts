import { describe, expect, it } from "vitest";
import { stageConfigSchema } from "../../../infra/stage-config.js";
import {
  eventBridgeSchedules,
  type StackFacts,
  stageTarget,
} from "../../../packages/functions/src/cli/stage-resources.js";

/**
 * No emulator has CloudFormation or EventBridge: a deployed stage's stack is given here as
 * DescribeStacks and ListStackResources answer (their shapes), and DescribeRule through a stand-in
 * for the client's `send`.
 */
const STACK: StackFacts = {
  outputs: new Map([
    ["TableName", "prod-fleet-alerts-Pipeline-Table-1"],
    ["AlertsTopicArn", "arn:aws:sns:eu-west-1:1:alerts"],
    ["EscalationTopicArn", "arn:aws:sns:eu-west-1:1:escalation"],
    ["OpsTopicArn", "arn:aws:sns:eu-west-1:1:ops"],
    ["EvidenceBucket", "prod-evidence"],
    ["IncidentBaseUrl", "https://alerts.example"],
  ]),
  resources: [
    {
      LogicalResourceId: "EvidenceDlq4B2C91A0",
      PhysicalResourceId: "https://sqs/1/e-dlq",
      ResourceType: "AWS::SQS::Queue",
    },
    {
      LogicalResourceId: "EvidenceQueue11AA22BB",
      PhysicalResourceId: "https://sqs/1/e",
      ResourceType: "AWS::SQS::Queue",
    },
    {
      LogicalResourceId: "WebhookDlq0F1E2D3C",
      PhysicalResourceId: "https://sqs/1/w-dlq",
      ResourceType: "AWS::SQS::Queue",
    },
    {
      LogicalResourceId: "PollSchedulenorth5E6F7A8B",
      PhysicalResourceId: "prod-poll-north",
      ResourceType: "AWS::Events::Rule",
    },
    {
      LogicalResourceId: "NoticesSchedule9A8B7C6D",
      PhysicalResourceId: "prod-notices",
      ResourceType: "AWS::Events::Rule",
    },
  ].map((resource) => ({
    ...resource,
    LastUpdatedTimestamp: new Date(),
    ResourceStatus: "CREATE_COMPLETE" as const,
  })),
};

const CONFIG = stageConfigSchema.parse({
  accounts: [{ id: "north" }, { id: "south" }],
  lagAlarmSeconds: 300,
  timestampAuthorityUrl: "https://tsa.example/stamp",
});

describe("a deployed stage's resources", () => {
  it("takes the accounts, lag threshold and TSA from the stage file, the rest from the stack", () => {
    expect(stageTarget("prod", CONFIG, STACK)).toEqual({
      stage: "prod",
      accounts: ["north", "south"],
      lagThresholdSeconds: 300,
      deadLetterQueues: [
        { name: "EvidenceDlq", url: "https://sqs/1/e-dlq" },
        { name: "WebhookDlq", url: "https://sqs/1/w-dlq" },
      ],
      topics: [
        { name: "alerts", arn: "arn:aws:sns:eu-west-1:1:alerts" },
        { name: "escalation", arn: "arn:aws:sns:eu-west-1:1:escalation" },
        { name: "ops", arn: "arn:aws:sns:eu-west-1:1:ops" },
      ],
      evidenceBucket: "prod-evidence",
      tsaUrl: "https://tsa.example/stamp",
      incidentBaseUrl: "https://alerts.example",
    });
  });

  it("says which output a stack deployed from older code lacks", () => {
    const outputs = new Map(STACK.outputs);
    outputs.delete("IncidentBaseUrl");
    expect(() => stageTarget("prod", CONFIG, { ...STACK, outputs })).toThrow(
      "the stack of stage prod has no output IncidentBaseUrl: deploy it again",
    );
  });

  it("asks EventBridge for every rule of the stack, and tells a disabled one", async () => {
    const states: Record<string, string> = { "prod-poll-north": "DISABLED", "prod-notices": "ENABLED" };
    const asked: string[] = [];
    const events = {
      // The functions package's own copy of the client: its command class is not this file's.
      send: async (command: { constructor: { name: string }; input: { Name?: string } }) => {
        expect(command.constructor.name).toBe("DescribeRuleCommand");
        asked.push(command.input.Name ?? "");
        return { State: states[command.input.Name ?? ""] };
      },
    } as unknown as Parameters<typeof eventBridgeSchedules>[0];
    const schedules = eventBridgeSchedules(events, STACK);
    expect(await schedules.list()).toEqual([
      { name: "prod-poll-north", enabled: false },
      { name: "prod-notices", enabled: true },
    ]);
    expect(asked).toEqual(["prod-poll-north", "prod-notices"]);
    expect(schedules.howToEnable("prod-poll-north")).toBe("aws events enable-rule --name prod-poll-north");
  });
});
