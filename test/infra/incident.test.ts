import { Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { ESCALATE_TIMEOUT } from "../../infra/functions.js";
import { ESCALATION_CLAIM_LEASE_MS } from "../../packages/core/src/escalation/run.js";
import { synthesizedStage } from "../support/stage-synth.js";

// Issue 15's infrastructure, on the "example" stage (infra/stages/example.json sets every option:
// base URL, custom domain, link hours, two escalation levels, throttle). cdk-nag over the whole
// stack, these resources included, is asserted in pipeline.test.ts.
type Resource = { Type: string; Properties: Record<string, unknown> };
let json: { Resources: Record<string, Resource> };
let template: Template;

beforeAll(async () => {
  json = (await synthesizedStage("example")).template;
  template = Template.fromJSON(json as unknown as Record<string, unknown>);
});

const ofType = (type: string) =>
  Object.entries(json.Resources).filter(([, resource]) => resource.Type === type);
const logicalId = (type: string, pattern: RegExp) =>
  ofType(type).find(([id]) => pattern.test(id))?.[0] as string;
const arn = (id: string) => ({ "Fn::GetAtt": [id, "Arn"] });
const fn = (pattern: RegExp) =>
  json.Resources[logicalId("AWS::Lambda::Function", pattern)]?.Properties as {
    MemorySize: number;
    Timeout: number;
    Environment: { Variables: Record<string, unknown> };
  };
const statementsOf = (pattern: RegExp) => {
  const [, policy] = ofType("AWS::IAM::Policy").find(([id]) => pattern.test(id)) ?? [];
  const document = policy?.Properties.PolicyDocument as {
    Statement: { Action: string | string[]; Resource: unknown; Condition?: unknown }[];
  };
  return document.Statement.map(({ Action, Resource, Condition }) => ({
    actions: [Action].flat(),
    resource: Resource,
    ...(Condition !== undefined && { condition: Condition }),
  }));
};

describe("the incident API", () => {
  it("routes exactly the incident page's four routes to the incident function", () => {
    const routes = ofType("AWS::ApiGatewayV2::Route").map(([, route]) => route.Properties);
    expect(routes.map((route) => route.RouteKey).sort()).toEqual([
      "GET /i/{token}",
      "GET /i/{token}/clips/{n}",
      "GET /i/{token}/pack",
      "POST /i/{token}/ack",
    ]);
    const [[integrationId, integration]] = ofType("AWS::ApiGatewayV2::Integration") as [[string, Resource]];
    expect(integration.Properties).toMatchObject({
      IntegrationType: "AWS_PROXY",
      IntegrationUri: arn(logicalId("AWS::Lambda::Function", /^Incident/)),
    });
    for (const route of routes) expect(JSON.stringify(route.Target)).toContain(integrationId);
  });

  it("throttles the default stage with the stage file's rate and burst", () => {
    template.hasResourceProperties("AWS::ApiGatewayV2::Stage", {
      StageName: "$default",
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 25, ThrottlingBurstLimit: 50 },
    });
  });

  it("logs every request without the token: the route's template, never the path or query", () => {
    const [[, stage]] = ofType("AWS::ApiGatewayV2::Stage") as [[string, Resource]];
    const settings = stage.Properties.AccessLogSettings as { DestinationArn: unknown; Format: string };
    expect(settings.DestinationArn).toEqual(arn(logicalId("AWS::Logs::LogGroup", /^IncidentApiAccessLogs/)));
    const format = JSON.parse(settings.Format) as Record<string, string>;
    expect(format).toMatchObject({
      requestId: "$context.requestId",
      routeKey: "$context.routeKey",
      status: "$context.status",
      latencyMs: "$context.responseLatency",
      ip: "$context.identity.sourceIp",
      userAgent: "$context.identity.userAgent",
    });
    // Every variable that can carry the token's value.
    expect(settings.Format).not.toMatch(
      /\$context\.(path|rawPath|resourcePath|domainPrefix)|\$request|\$input|querystring|pathParameters|\$method/,
    );
  });

  it("serves the custom domain with its certificate, and links point at the stage's base URL", () => {
    template.hasResourceProperties("AWS::ApiGatewayV2::DomainName", {
      DomainName: "alerts.example.com",
      DomainNameConfigurations: [
        {
          CertificateArn:
            "arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b",
          EndpointType: "REGIONAL",
        },
      ],
    });
    template.hasResourceProperties("AWS::ApiGatewayV2::ApiMapping", {
      ApiId: { Ref: logicalId("AWS::ApiGatewayV2::Api", /^IncidentApi/) },
      Stage: "$default",
    });
    template.hasOutput("IncidentBaseUrl", { Value: "https://alerts.example.com" });
  });
});

describe("the alert link secret", () => {
  it("is read from SSM by the functions that send messages about alerts alone: poller, Offline confirmation, evidence, escalation, webhooks", () => {
    for (const id of [/^Poller/, /^Confirm/, /^Evidence/, /^Escalate/, /^Webhook(?!Queue|Dlq)/]) {
      expect(fn(id).Environment.Variables).toMatchObject({
        SST_Secret_value_SHARE_LINK_SECRET: "__FETCH_FROM_SSM__",
      });
      const role = new RegExp(`^${id.source.slice(1)}ServiceRoleDefaultPolicy`);
      const ssm = statementsOf(role).filter(({ actions }) => actions.includes("ssm:GetParameters"));
      expect(JSON.stringify(ssm.map(({ resource }) => resource))).toMatch(/Secret\/SHARE_LINK_SECRET\/value/);
    }
    expect(fn(/^Incident/).Environment.Variables).not.toHaveProperty("SST_Secret_value_SHARE_LINK_SECRET");
  });
});

describe("the incident function", () => {
  it("has 256 MB, 10 s and exactly its environment, with the form secret read from SSM", () => {
    expect(fn(/^Incident/)).toMatchObject({ MemorySize: 256, Timeout: 10 });
    const variables = fn(/^Incident/).Environment.Variables;
    expect(variables).toMatchObject({
      TABLE_NAME: { Ref: logicalId("AWS::DynamoDB::Table", /^Table/) },
      EVIDENCE_BUCKET: { Ref: logicalId("AWS::S3::Bucket", /^EvidenceBucket/) },
      EVIDENCE_STAGING_BUCKET: { Ref: logicalId("AWS::S3::Bucket", /^StagingBucket/) },
      EVIDENCE_QUEUE_URL: { Ref: logicalId("AWS::SQS::Queue", /^EvidenceQueue/) },
      PUBLIC_BASE_URL: "https://alerts.example.com",
      FLEET_TIME_ZONE: "Europe/Berlin",
      SST_Secret_value_INCIDENT_FORM_SECRET: "__FETCH_FROM_SSM__",
    });
    // Nothing of the device cloud or the topics; of the queues, only the one that builds claim packs.
    expect(Object.keys(variables).filter((name) => /DEVICE_CLOUD|TOPIC|QUEUE/.test(name))).toEqual([
      "EVIDENCE_QUEUE_URL",
    ]);
  });

  it("may touch only share and account items, only read evidence objects and claim-pack zips, and ask for a zip", () => {
    const statements = statementsOf(/^IncidentServiceRoleDefaultPolicy/);
    const ssm = statements.filter(({ actions }) => actions.includes("ssm:GetParameters"));
    expect(ssm).toHaveLength(1);
    expect(JSON.stringify(ssm[0]?.resource)).toMatch(/Secret\/INCIDENT_FORM_SECRET\/value/);
    expect(JSON.stringify(ssm[0]?.resource)).not.toContain("DEVICE_CLOUD");
    expect(statements.filter(({ actions }) => !actions.includes("ssm:GetParameters"))).toEqual([
      {
        actions: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
        resource: arn(logicalId("AWS::DynamoDB::Table", /^Table/)),
        condition: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["ACCOUNT#*", "SHARE#*"] } },
      },
      {
        actions: ["s3:GetObject"],
        resource: { "Fn::Join": ["", [arn(logicalId("AWS::S3::Bucket", /^EvidenceBucket/)), "/evidence/*"]] },
      },
      {
        actions: ["s3:ListBucket"],
        resource: arn(logicalId("AWS::S3::Bucket", /^StagingBucket/)),
        condition: { StringLike: { "s3:prefix": ["packs/*"] } },
      },
      {
        actions: ["s3:GetObject"],
        resource: { "Fn::Join": ["", [arn(logicalId("AWS::S3::Bucket", /^StagingBucket/)), "/packs/*"]] },
      },
      { actions: ["sqs:SendMessage"], resource: arn(logicalId("AWS::SQS::Queue", /^EvidenceQueue/)) },
    ]);
  });
});

describe("escalation", () => {
  const topic = () => ({ Ref: logicalId("AWS::SNS::Topic", /^EscalationTopic/) });
  const queue = () => arn(logicalId("AWS::SQS::Queue", /^EscalationQueue/));

  it("has a topic encrypted with the topics' key, each level's people hearing only their level", () => {
    template.hasResourceProperties("AWS::SNS::Topic", {
      KmsMasterKeyId: arn(logicalId("AWS::KMS::Key", /^TopicKey/)),
    });
    const subscriptions = ofType("AWS::SNS::Subscription")
      .map(([, subscription]) => subscription.Properties)
      .filter((subscription) => JSON.stringify(subscription.TopicArn) === JSON.stringify(topic()))
      .map(({ Protocol, Endpoint, FilterPolicy }) => ({ Protocol, Endpoint, FilterPolicy }));
    expect(subscriptions).toEqual([
      { Protocol: "email", Endpoint: "ops@example.com", FilterPolicy: { level: ["1"] } },
      { Protocol: "sms", Endpoint: "+4915112345679", FilterPolicy: { level: ["1"] } },
      { Protocol: "email", Endpoint: "supervisor@example.com", FilterPolicy: { level: ["2"] } },
      { Protocol: "sms", Endpoint: "+4915112345670", FilterPolicy: { level: ["2"] } },
    ]);
  });

  it("has a job queue with a dead-letter queue kept as long as SQS keeps anything", () => {
    template.hasResourceProperties("AWS::SQS::Queue", {
      VisibilityTimeout: 180, // six times the escalate function's 30 s
      RedrivePolicy: {
        deadLetterTargetArn: arn(logicalId("AWS::SQS::Queue", /^EscalationDlq/)),
        maxReceiveCount: 5,
      },
    });
    expect(json.Resources[logicalId("AWS::SQS::Queue", /^EscalationDlq/)]?.Properties).toMatchObject({
      MessageRetentionPeriod: 1_209_600,
      SqsManagedSseEnabled: true,
    });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "ApproximateNumberOfMessagesVisible",
      Dimensions: [
        {
          Name: "QueueName",
          Value: { "Fn::GetAtt": [logicalId("AWS::SQS::Queue", /^EscalationDlq/), "QueueName"] },
        },
      ],
      AlarmActions: [{ Ref: logicalId("AWS::SNS::Topic", /^OpsTopic/) }],
    });
  });

  it("works the queue ten jobs at a time with partial batch responses", () => {
    expect(fn(/^Escalate/)).toMatchObject({ MemorySize: 256, Timeout: 30 });
    // A live claim must never be taken over: the function ends long before its lease runs out.
    expect(ESCALATE_TIMEOUT.toMilliseconds() * 2).toBeLessThan(ESCALATION_CLAIM_LEASE_MS);
    expect(fn(/^Escalate/).Environment.Variables).toMatchObject({ ESCALATION_TOPIC_ARN: topic() });
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: logicalId("AWS::Lambda::Function", /^Escalate/) },
      EventSourceArn: queue(),
      BatchSize: 10,
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
  });

  it("gives the escalate function what it uses and nothing more, the share-link secret its only one", () => {
    const statements = statementsOf(/^EscalateServiceRoleDefaultPolicy/);
    const ssm = statements.filter(({ actions }) => actions.includes("ssm:GetParameters"));
    expect(ssm).toHaveLength(1);
    expect(JSON.stringify(ssm[0]?.resource)).toMatch(/Secret\/SHARE_LINK_SECRET\/value/);
    expect(JSON.stringify(ssm[0]?.resource)).not.toMatch(/DEVICE_CLOUD/);
    expect(statements.filter(({ actions }) => !actions.includes("ssm:GetParameters"))).toEqual([
      {
        actions: [
          "sqs:ReceiveMessage",
          "sqs:ChangeMessageVisibility",
          "sqs:GetQueueUrl",
          "sqs:DeleteMessage",
          "sqs:GetQueueAttributes",
        ],
        resource: queue(),
      },
      {
        actions: ["dynamodb:GetItem", "dynamodb:UpdateItem"],
        resource: arn(logicalId("AWS::DynamoDB::Table", /^Table/)),
      },
      { actions: ["sns:Publish"], resource: topic() },
      {
        actions: ["kms:GenerateDataKey", "kms:Decrypt"],
        resource: arn(logicalId("AWS::KMS::Key", /^TopicKey/)),
      },
      { actions: ["sqs:SendMessage"], resource: queue() },
    ]);
  });

  it("lets the functions that publish alerts schedule escalations and link to incidents", () => {
    for (const pattern of [/^Poller/, /^Confirm/, /^Evidence/, /^Escalate/]) {
      expect(fn(pattern).Environment.Variables).toMatchObject({
        ESCALATION_QUEUE_URL: { Ref: logicalId("AWS::SQS::Queue", /^EscalationQueue/) },
        PUBLIC_BASE_URL: "https://alerts.example.com",
        SHARE_LINK_HOURS: "48",
      });
    }
  });
});
