import {
  type CloudFormationClient,
  DescribeStacksCommand,
  paginateListStackResources,
  type StackResourceSummary,
} from "@aws-sdk/client-cloudformation";
import { DescribeRuleCommand, type EventBridgeClient } from "@aws-sdk/client-eventbridge";
import type { DoctorTarget, Schedules } from "@fleet-alerts/core/doctor";
import type { StageConfig } from "../../../../infra/stage-config.js";
import { CliError } from "./parse.js";

/** A deployed stage's stack as CloudFormation describes it: its outputs (Pipeline.ts) and resources. */
export interface StackFacts {
  outputs: ReadonlyMap<string, string>;
  resources: readonly StackResourceSummary[];
}

export async function describeStack(client: CloudFormationClient, stackName: string): Promise<StackFacts> {
  const { Stacks = [] } = await client.send(new DescribeStacksCommand({ StackName: stackName })).catch(() => {
    throw new CliError(`no stack ${stackName} (check --stage, and the AWS region and credentials)`);
  });
  const outputs = new Map(
    (Stacks[0]?.Outputs ?? []).flatMap(({ OutputKey, OutputValue }) =>
      OutputKey && OutputValue !== undefined ? [[OutputKey, OutputValue] as const] : [],
    ),
  );
  // A stack has at most 500 resources: five pages of a hundred.
  const resources: StackResourceSummary[] = [];
  for await (const page of paginateListStackResources({ client }, { StackName: stackName }))
    resources.push(...(page.StackResourceSummaries ?? []));
  return { outputs, resources };
}

/**
 * What doctor checks of the stage: its accounts, lag threshold and TSA from its stage file, its
 * topics, bucket and incident pages from the stack's outputs, and every dead-letter queue of the
 * stack (infra/queues.ts and webhooks.ts name each `...Dlq`; the physical id of a queue is its URL).
 */
export function stageTarget(stage: string, config: StageConfig, stack: StackFacts): DoctorTarget {
  const output = (key: string) => stackOutput(stage, stack, key);
  return {
    stage,
    accounts: config.accounts.map((account) => account.id),
    lagThresholdSeconds: config.lagAlarmSeconds,
    deadLetterQueues: stack.resources
      .filter((resource) => resource.ResourceType === "AWS::SQS::Queue" && /Dlq/.test(logicalId(resource)))
      .map((resource) => ({ name: shortName(resource), url: resource.PhysicalResourceId ?? "" })),
    topics: [
      { name: "alerts", arn: output("AlertsTopicArn") },
      { name: "escalation", arn: output("EscalationTopicArn") },
      { name: "ops", arn: output("OpsTopicArn") },
    ],
    evidenceBucket: output("EvidenceBucket"),
    ...(config.timestampAuthorityUrl && { tsaUrl: config.timestampAuthorityUrl }),
    incidentBaseUrl: output("IncidentBaseUrl"),
  };
}

/** One of the stack's outputs (infra/Pipeline.ts); a stack without it was deployed from older code. */
export function stackOutput(stage: string, stack: StackFacts, key: string): string {
  const value = stack.outputs.get(key);
  if (value === undefined)
    throw new CliError(`the stack of stage ${stage} has no output ${key}: deploy it again`);
  return value;
}

const logicalId = (resource: StackResourceSummary) => resource.LogicalResourceId ?? "";

/** The construct's id without CDK's hash: `EvidenceDlq` for `EvidenceDlq4B2C91A0`. */
function shortName(resource: StackResourceSummary): string {
  return logicalId(resource).replace(/[0-9A-F]{8}$/, "");
}

/**
 * Every rule of the stack (each account's poll and audit schedules, the sweeps), by DescribeRule;
 * a rule's physical id is its name.
 */
export function eventBridgeSchedules(events: EventBridgeClient, stack: StackFacts): Schedules {
  const rules = stack.resources.filter((resource) => resource.ResourceType === "AWS::Events::Rule");
  return {
    list: () =>
      Promise.all(
        rules.map(async (rule) => {
          const name = rule.PhysicalResourceId ?? "";
          const { State } = await events.send(new DescribeRuleCommand({ Name: name }));
          // ENABLED, or ENABLED_WITH_ALL_CLOUDTRAIL_MANAGEMENT_EVENTS; else DISABLED.
          return { name, enabled: State?.startsWith("ENABLED") ?? false };
        }),
      ),
    howToEnable: (name) => `aws events enable-rule --name ${name}`,
  };
}
