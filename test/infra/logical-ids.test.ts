import { beforeAll, describe, expect, it } from "vitest";
import { synthesizedStage } from "../support/stage-synth.js";

// A resource whose logical ID changes is replaced on the next deploy: a new, empty table, bucket,
// topic (new subscriptions to confirm) or queue (messages lost), or a new key. These IDs are
// literals read from the template as it deploys today; a refactor that moves a construct to another
// scope or renames it fails here before it can replace anything.
const STATEFUL: Record<string, string> = {
  TableCD117FA1: "AWS::DynamoDB::Table",
  EvidenceBucketFBA44255: "AWS::S3::Bucket",
  StagingBucket9644C37C: "AWS::S3::Bucket",
  AccessLogs8B620ECA: "AWS::S3::Bucket",
  TopicKeyB2E0C9CB: "AWS::KMS::Key",
  AlertsTopic3414BE91: "AWS::SNS::Topic",
  OpsTopic1B68409C: "AWS::SNS::Topic",
  EvidenceQueue0DEC5F58: "AWS::SQS::Queue",
  EvidenceDlqEEE84C34: "AWS::SQS::Queue",
  ConfirmQueueC79AE864: "AWS::SQS::Queue",
  ConfirmDlq6EDE907E: "AWS::SQS::Queue",
  EscalationTopic8FD7D57B: "AWS::SNS::Topic",
  EscalationQueueF7DFA5C3: "AWS::SQS::Queue",
  EscalationDlq7017CC9C: "AWS::SQS::Queue",
  WebhookQueueA9D318EA: "AWS::SQS::Queue",
  WebhookDlqAEF195B3: "AWS::SQS::Queue",
  // A replaced HTTP API gets a new endpoint: every link already sent would stop working (stages
  // without a publicBaseUrl or custom domain link to the endpoint).
  IncidentApi8F91C5F3: "AWS::ApiGatewayV2::Api",
  // The functions' logs: a replaced log group loses its month of history.
  PollerLogsC4401B8A: "AWS::Logs::LogGroup",
  ConfirmLogs0147B153: "AWS::Logs::LogGroup",
  EvidenceLogsBDF5B71B: "AWS::Logs::LogGroup",
  IncidentLogsD8F0453D: "AWS::Logs::LogGroup",
  EscalateLogs5F348EAE: "AWS::Logs::LogGroup",
  WebhookLogs0B55926B: "AWS::Logs::LogGroup",
  RecorderAuditLogs5866BED1: "AWS::Logs::LogGroup",
  NoticesLogs49BD3BA8: "AWS::Logs::LogGroup",
  IncidentApiAccessLogs6B7281D0: "AWS::Logs::LogGroup",
};
const STATEFUL_TYPES = new Set(Object.values(STATEFUL));

let resources: Record<string, { Type: string }>;

beforeAll(async () => {
  resources = (await synthesizedStage("test")).template.Resources;
});

describe("stateful logical IDs", () => {
  it("keeps every stateful resource's logical ID and type", () => {
    const actual = Object.fromEntries(
      Object.entries(resources)
        .filter(([, resource]) => STATEFUL_TYPES.has(resource.Type))
        .map(([id, resource]) => [id, resource.Type]),
    );
    // Equal, not contained: a new stateful resource is added to the list on purpose.
    expect(actual).toEqual(STATEFUL);
  });
});
