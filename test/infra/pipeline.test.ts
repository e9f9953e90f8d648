import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { Match, Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { PARKED_SWEEP_MESSAGE } from "../../packages/core/src/evidence/sweep-message.js";
import { recipientId } from "../../packages/core/src/routing/recipients.js";
import { synthesizedStage } from "../support/stage-synth.js";

// The "example" stage (infra/stages/example.json) sets every option, subscriptions included.
let template: Template;
let json: { Resources: Record<string, { Type: string; Properties: Record<string, unknown> }> };
let nagErrors: string[];
let outdir: string;

beforeAll(async () => {
  const synthesized = await synthesizedStage("example");
  outdir = synthesized.outdir;
  json = synthesized.template;
  template = Template.fromJSON(json as unknown as Record<string, unknown>);
  nagErrors = synthesized.nagErrors;
});

const ofType = (type: string) =>
  Object.entries(json.Resources).filter(([, resource]) => resource.Type === type);
const logicalId = (type: string, pattern: RegExp) =>
  ofType(type).find(([id]) => pattern.test(id))?.[0] as string;
const arn = (id: string) => ({ "Fn::GetAtt": [id, "Arn"] });

/** The statements of a function's policy, as (actions, resources), secrets' SSM reads apart. */
function statementsOf(fn: RegExp) {
  const [, policy] = ofType("AWS::IAM::Policy").find(([id]) => fn.test(id)) ?? [];
  const document = policy?.Properties.PolicyDocument as {
    Statement: { Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown }[];
  };
  return document.Statement.map((statement) => ({
    actions: [statement.Action].flat(),
    resource: statement.Resource,
    effect: statement.Effect,
    ...(statement.Condition !== undefined && { condition: statement.Condition }),
  }));
}

describe("data and messaging", () => {
  it("has one on-demand table with point-in-time recovery and a TTL attribute", () => {
    template.resourceCountIs("AWS::DynamoDB::Table", 1);
    template.hasResourceProperties("AWS::DynamoDB::Table", {
      BillingMode: "PAY_PER_REQUEST",
      KeySchema: [
        { AttributeName: "pk", KeyType: "HASH" },
        { AttributeName: "sk", KeyType: "RANGE" },
      ],
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      TimeToLiveSpecification: { AttributeName: "expiresAt", Enabled: true },
      DeletionProtectionEnabled: false,
    });
  });

  it("encrypts every topic with a rotating key CloudWatch may use, and refuses plain HTTP", () => {
    const key = logicalId("AWS::KMS::Key", /^TopicKey/);
    template.hasResourceProperties("AWS::KMS::Key", { EnableKeyRotation: true });
    template.hasResourceProperties("AWS::KMS::Key", {
      KeyPolicy: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Principal: { Service: "cloudwatch.amazonaws.com" },
            Action: ["kms:Decrypt", "kms:GenerateDataKey"],
          }),
        ]),
      },
    });
    for (const [, topic] of ofType("AWS::SNS::Topic"))
      expect(topic.Properties.KmsMasterKeyId).toEqual(arn(key));
    for (const [, policy] of ofType("AWS::SNS::TopicPolicy")) {
      expect(JSON.stringify(policy.Properties)).toContain('"aws:SecureTransport":"false"');
    }
  });

  it("subscribes each recipient of the groups once, filtered on its id, and ops to what no group selects", () => {
    const topic = JSON.stringify({ Ref: logicalId("AWS::SNS::Topic", /^AlertsTopic/) });
    const onAlerts = ofType("AWS::SNS::Subscription")
      .map(([, subscription]) => subscription.Properties)
      .filter((subscription) => JSON.stringify(subscription.TopicArn) === topic);
    const endpoints = onAlerts.map(({ Endpoint }) => Endpoint);
    // config/groups.example.json: fleet-manager@ is in two groups, and is one subscription.
    expect(endpoints.filter((endpoint) => endpoint === "fleet-manager@example.com")).toHaveLength(1);
    expect(onAlerts).toContainEqual(
      expect.objectContaining({
        Protocol: "email",
        Endpoint: "fleet-manager@example.com",
        FilterPolicy: { to: [recipientId("email", "fleet-manager@example.com")] },
      }),
    );
    expect(onAlerts).toContainEqual(
      expect.objectContaining({
        Protocol: "sms",
        Endpoint: "+4915112345678",
        FilterPolicy: { to: [recipientId("sms", "+4915112345678")] },
      }),
    );
    expect(onAlerts).toContainEqual(
      expect.objectContaining({
        Protocol: "email",
        Endpoint: "ops@example.com",
        FilterPolicy: { to: ["unrouted"] },
      }),
    );
    // Nothing on the alerts topic unfiltered: each message is for one recipient.
    for (const subscription of onAlerts) expect(subscription.FilterPolicy).toBeDefined();
    template.hasResourceProperties("AWS::SNS::Subscription", {
      Protocol: "email",
      Endpoint: "ops@example.com",
      TopicArn: { Ref: logicalId("AWS::SNS::Topic", /^OpsTopic/) },
    });
  });

  it("alarms on the month's SMS spend at the stage's budget", () => {
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      Namespace: "AWS/SNS",
      MetricName: "SMSMonthToDateSpentUSD",
      Threshold: 100,
      AlarmActions: [{ Ref: logicalId("AWS::SNS::Topic", /^OpsTopic/) }],
    });
  });

  it("encrypts every queue, enforces SSL, and gives the work queues dead-letter queues", () => {
    const queues = ofType("AWS::SQS::Queue");
    // Evidence, confirm, escalation, webhook, each with its DLQ; the poll timers without one (a
    // timer is stale a minute later: infra/polling.ts).
    expect(queues).toHaveLength(9);
    template.hasResourceProperties("AWS::SQS::Queue", {
      VisibilityTimeout: 120,
      MessageRetentionPeriod: 300,
      RedrivePolicy: Match.absent(),
    });
    for (const [, queue] of queues) expect(queue.Properties.SqsManagedSseEnabled).toBe(true);
    for (const [, policy] of ofType("AWS::SQS::QueuePolicy"))
      expect(JSON.stringify(policy.Properties)).toContain('"aws:SecureTransport":"false"');
    template.hasResourceProperties("AWS::SQS::Queue", {
      VisibilityTimeout: 5400,
      RedrivePolicy: {
        deadLetterTargetArn: arn(logicalId("AWS::SQS::Queue", /^EvidenceDlq/)),
        maxReceiveCount: 5,
      },
    });
    template.hasResourceProperties("AWS::SQS::Queue", {
      RedrivePolicy: {
        deadLetterTargetArn: arn(logicalId("AWS::SQS::Queue", /^ConfirmDlq/)),
        maxReceiveCount: 5,
      },
    });
  });
});

describe("the evidence bucket", () => {
  const evidenceBucket = () =>
    json.Resources[logicalId("AWS::S3::Bucket", /^EvidenceBucket/)]?.Properties ?? {};

  it("is versioned and Object Locked in compliance mode for the stage's days", () => {
    expect(evidenceBucket()).toMatchObject({
      VersioningConfiguration: { Status: "Enabled" },
      ObjectLockEnabled: true,
      ObjectLockConfiguration: {
        ObjectLockEnabled: "Enabled",
        Rule: { DefaultRetention: { Mode: "COMPLIANCE", Days: 30 } },
      },
    });
  });

  it("blocks public access, is encrypted, logs access, has no CORS, and moves to a cheaper class", () => {
    expect(evidenceBucket()).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" } }],
      },
      LoggingConfiguration: {
        DestinationBucketName: { Ref: logicalId("AWS::S3::Bucket", /^AccessLogs/) },
        LogFilePrefix: "evidence/",
      },
      LifecycleConfiguration: {
        Rules: [{ Status: "Enabled", Transitions: [{ StorageClass: "GLACIER_IR", TransitionInDays: 14 }] }],
      },
    });
    for (const [, bucket] of ofType("AWS::S3::Bucket"))
      expect(bucket.Properties.CorsConfiguration).toBeUndefined();
    for (const [, policy] of ofType("AWS::S3::BucketPolicy"))
      expect(JSON.stringify(policy.Properties)).toContain('"aws:SecureTransport":"false"');
  });

  it("stages clips and claim-pack zips in a bucket that forgets them within a day", () => {
    expect(json.Resources[logicalId("AWS::S3::Bucket", /^StagingBucket/)]?.Properties).toMatchObject({
      LifecycleConfiguration: {
        Rules: [
          {
            ExpirationInDays: 1,
            AbortIncompleteMultipartUpload: { DaysAfterInitiation: 1 },
            Status: "Enabled",
          },
        ],
      },
    });
  });
});

describe("functions", () => {
  const fn = (pattern: RegExp) =>
    json.Resources[logicalId("AWS::Lambda::Function", pattern)]?.Properties ?? {};
  /** A function's bundle as synthesized: the folder Lambda unpacks into /var/task. */
  const bundle = (pattern: RegExp) =>
    join(outdir, `asset.${(fn(pattern).Code as { S3Key: string }).S3Key.replace(/\.zip$/, "")}`);

  it("run on arm64 with the latest Node.js runtime, source maps enabled but for the poller and the evidence worker (small semi-spaces instead, set after the runtime's own)", async () => {
    for (const pattern of [/^Poller/, /^Confirm/, /^Evidence/]) {
      expect(fn(pattern)).toMatchObject({ Runtime: "nodejs24.x", Architectures: ["arm64"] });
    }
    const nodeOptions = (pattern: RegExp) =>
      (fn(pattern) as { Environment: { Variables: Record<string, string> } }).Environment.Variables
        .NODE_OPTIONS;
    expect(nodeOptions(/^Confirm/)).toBe("--enable-source-maps");
    // Parsing the source map would cost the worker a sixth of its peak memory, and the poller the
    // margin of its 128 MB in production; a small young generation, and collections paced by the
    // download (gc exposed), free the download's chunks sooner (npm run bench).
    expect(nodeOptions(/^Evidence/)).toBe("--expose-gc");
    expect(nodeOptions(/^Poller/)).toBeUndefined();
    // The runtime's own --max-semi-space-size, on node's command line, wins over NODE_OPTIONS: the
    // worker's and the poller's go in after it, through the runtime wrapper shipped in each bundle,
    // executable (a catch-up's peak at 128 MB: npm run bench, section 3b).
    for (const pattern of [/^Evidence/, /^Poller/]) {
      expect(fn(pattern).Environment).toMatchObject({
        Variables: {
          AWS_LAMBDA_EXEC_WRAPPER: "/var/task/runtime-wrapper.sh",
          NODE_FLAGS_AFTER_RUNTIME: "--max-semi-space-size=1",
        },
      });
      const wrapper = join(bundle(pattern), "runtime-wrapper.sh");
      expect(await readFile(wrapper, "utf8")).toBe(await readFile("infra/runtime-wrapper.sh", "utf8"));
      expect((await stat(wrapper)).mode & 0o111).toBe(0o111);
    }
    expect(fn(/^Confirm/).Environment).not.toMatchObject({
      Variables: { AWS_LAMBDA_EXEC_WRAPPER: expect.anything() },
    });
  });

  it("poll each account on its own schedule, which starts its chain of timed polls each minute", () => {
    // Two accounts (north, south), polled every 10 s, each poll an invocation of a minute at most:
    // the two watchdogs, and the poll-timer queue's mapping two at a time.
    expect(fn(/^Poller/)).toMatchObject({ ReservedConcurrentExecutions: 4, Timeout: 60, MemorySize: 512 });
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: logicalId("AWS::Lambda::Function", /^Poller/) },
      EventSourceArn: arn(logicalId("AWS::SQS::Queue", /^PollTimerQueue/)),
      BatchSize: 10,
      ScalingConfig: { MaximumConcurrency: 2 },
    });
    expect(fn(/^Poller/).Environment).toMatchObject({
      Variables: {
        POLL_EVERY_SECONDS: "10",
        POLL_TIMER_QUEUE_URL: { Ref: logicalId("AWS::SQS::Queue", /^PollTimerQueue/) },
        FLEET_TIME_ZONE: "Europe/Berlin",
        DEVICE_CLOUD_ACCOUNTS_FILE: "accounts.json",
        GROUPS_FILE: "groups.json",
      },
    });
    template.hasResourceProperties("AWS::Lambda::EventInvokeConfig", {
      FunctionName: { Ref: logicalId("AWS::Lambda::Function", /^Poller/) },
      MaximumEventAgeInSeconds: 60,
      MaximumRetryAttempts: 0,
    });
    // One per account, the notices function's every 5 minutes, the parked-evidence sweep's every
    // hour, and one recorder audit per account (test/infra/recorder-audit.test.ts).
    const rules = ofType("AWS::Events::Rule").map(([, rule]) => rule.Properties);
    expect(rules).toHaveLength(6);
    for (const account of ["north", "south"])
      template.hasResourceProperties("AWS::Events::Rule", {
        ScheduleExpression: "rate(1 minute)",
        Targets: [
          Match.objectLike({
            Arn: arn(logicalId("AWS::Lambda::Function", /^Poller/)),
            Input: JSON.stringify({ account }),
          }),
        ],
      });
  });

  it("bundle the stage's accounts and each account's rules file with the functions that poll", async () => {
    const accountsFile = JSON.parse(
      await readFile(".sst/fleet-alerts/example/accounts.json", "utf8"),
    ) as unknown[];
    expect(accountsFile).toEqual([
      { id: "north", rulesFile: "rules/north.json", gpsSpeedUnit: "km/h", gpsLookupBudgetMs: 3000 },
      { id: "south", gpsSpeedUnit: "mph", gpsLookupBudgetMs: 0 },
    ]);
    for (const pattern of [/^Poller/, /^Confirm/, /^Evidence/]) {
      expect(JSON.parse(await readFile(join(bundle(pattern), "accounts.json"), "utf8"))).toEqual(
        accountsFile,
      );
      expect(await readFile(join(bundle(pattern), "rules/north.json"), "utf8")).toBe(
        await readFile("config/rules.example.json", "utf8"),
      );
    }
  });

  it("fetch evidence from the queue with partial batch responses, with time for a 30-minute clip", () => {
    expect(fn(/^Evidence/)).toMatchObject({ Timeout: 900 });
    // The claim pack's maker and the stage's Time-Stamp Authority, from the stage file.
    expect(fn(/^Evidence/).Environment).toMatchObject({
      Variables: {
        CLAIM_SOURCE_ORGANIZATION: "Example Fleet Services Ltd",
        TSA_URL: "https://freetsa.org/tsr",
        TSA_TIMEOUT_MS: "10000",
        FLEET_TIME_ZONE: "Europe/Berlin",
        EVIDENCE_MAX_WAIT_DAYS: "10",
        // Parked evidence waits as long as the card keeps footage: the stage's device types first.
        CARD_RETENTION: JSON.stringify({
          byDeviceType: [{ name: "dashcam-2ch", deviceIds: ["DC2-*"], days: 5 }],
        }),
      },
    });
    // The parked-evidence sweep: its message on the evidence queue every hour.
    template.hasResourceProperties("AWS::Events::Rule", {
      ScheduleExpression: "rate(1 hour)",
      Targets: [
        {
          Arn: arn(logicalId("AWS::SQS::Queue", /^EvidenceQueue/)),
          Input: JSON.stringify(PARKED_SWEEP_MESSAGE),
        },
      ],
    });
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: logicalId("AWS::Lambda::Function", /^Evidence/) },
      EventSourceArn: arn(logicalId("AWS::SQS::Queue", /^EvidenceQueue/)),
      FunctionResponseTypes: ["ReportBatchItemFailures"],
      BatchSize: 1,
      // The stage's evidenceConcurrency: at most six downloads from the vendor's service at once.
      ScalingConfig: { MaximumConcurrency: 6 },
    });
    template.hasResourceProperties("AWS::Lambda::EventSourceMapping", {
      FunctionName: { Ref: logicalId("AWS::Lambda::Function", /^Confirm/) },
      FunctionResponseTypes: ["ReportBatchItemFailures"],
    });
  });

  it("carry no secret: each account's device-cloud secrets are read from SSM at run time", () => {
    for (const pattern of [/^Poller/, /^Confirm/, /^Evidence/]) {
      const variables = (fn(pattern).Environment as { Variables: Record<string, unknown> }).Variables;
      expect(Object.keys(variables).filter((name) => name.includes("DEVICE_CLOUD"))).toEqual([
        "DEVICE_CLOUD_ACCOUNTS_FILE",
      ]);
      expect(JSON.stringify(variables)).not.toMatch(/"main"/);
    }
  });
});

describe("least privilege", () => {
  const table = () => arn(logicalId("AWS::DynamoDB::Table", /^Table/));
  const topic = () => ({ Ref: logicalId("AWS::SNS::Topic", /^AlertsTopic/) });
  const opsTopic = () => ({ Ref: logicalId("AWS::SNS::Topic", /^OpsTopic/) });
  const key = () => arn(logicalId("AWS::KMS::Key", /^TopicKey/));
  const queueArn = (pattern: RegExp) => arn(logicalId("AWS::SQS::Queue", pattern));
  const objects = (pattern: RegExp) => ({
    "Fn::Join": ["", [arn(logicalId("AWS::S3::Bucket", pattern)), "/evidence/*"]],
  });
  // The accounts' device-cloud secrets: the stage's and the fallback's DEVICE_CLOUD_* paths, nothing
  // wider; the link secret, exactly its two parameter ARNs.
  const withoutSecrets = (pattern: RegExp) => {
    const statements = statementsOf(pattern);
    const ssm = statements.filter((statement) => statement.actions.includes("ssm:GetParameters"));
    expect(ssm).toHaveLength(2);
    const [link, accounts] = ssm.map((statement) => JSON.stringify(statement.resource));
    expect(link).toMatch(/Secret\/SHARE_LINK_SECRET\/value/);
    expect(JSON.parse(accounts ?? "[]")).toEqual([
      {
        "Fn::Join": [
          "",
          [
            "arn:",
            { Ref: "AWS::Partition" },
            ":ssm:eu-west-1:000000000000:parameter/sst/fleet-alerts/example/Secret/DEVICE_CLOUD_*",
          ],
        ],
      },
      {
        "Fn::Join": [
          "",
          [
            "arn:",
            { Ref: "AWS::Partition" },
            ":ssm:eu-west-1:000000000000:parameter/sst/fleet-alerts/.fallback/Secret/DEVICE_CLOUD_*",
          ],
        ],
      },
    ]);
    return statements.filter((statement) => !statement.actions.includes("ssm:GetParameters"));
  };
  const consume = [
    "sqs:ReceiveMessage",
    "sqs:ChangeMessageVisibility",
    "sqs:GetQueueUrl",
    "sqs:DeleteMessage",
    "sqs:GetQueueAttributes",
  ];

  it("gives the poller the table's item actions, Publish on the alerts and ops topics and SendMessage on its queues", () => {
    expect(withoutSecrets(/^PollerServiceRoleDefaultPolicy/)).toEqual([
      // Its chains' timers: consumed, and each poll sends the next.
      { actions: consume, resource: queueArn(/^PollTimerQueue/), effect: "Allow" },
      { actions: ["sqs:SendMessage"], resource: queueArn(/^PollTimerQueue/), effect: "Allow" },
      {
        actions: [
          "dynamodb:GetItem",
          "dynamodb:PutItem",
          "dynamodb:UpdateItem",
          "dynamodb:DeleteItem",
          "dynamodb:Query",
          "dynamodb:BatchWriteItem",
        ],
        resource: table(),
        effect: "Allow",
      },
      { actions: ["sns:Publish"], resource: topic(), effect: "Allow" },
      { actions: ["kms:GenerateDataKey", "kms:Decrypt"], resource: key(), effect: "Allow" },
      // Told of a record set aside (packages/core/src/setaside).
      { actions: ["sns:Publish"], resource: opsTopic(), effect: "Allow" },
      {
        actions: ["sqs:SendMessage"],
        resource: [queueArn(/^EvidenceQueue/), queueArn(/^ConfirmQueue/), queueArn(/^EscalationQueue/)],
        effect: "Allow",
      },
      { actions: ["sqs:SendMessage"], resource: queueArn(/^WebhookQueue/), effect: "Allow" },
    ]);
  });

  it("tell the ops topic of what they set aside: the poller and the confirmation know its ARN", () => {
    for (const pattern of [/^Poller/, /^Confirm/])
      expect(json.Resources[logicalId("AWS::Lambda::Function", pattern)]?.Properties).toMatchObject({
        Environment: { Variables: { OPS_TOPIC_ARN: opsTopic() } },
      });
  });

  it("gives the Offline confirmation what it uses and nothing more", () => {
    expect(withoutSecrets(/^ConfirmServiceRoleDefaultPolicy/)).toEqual([
      { actions: consume, resource: queueArn(/^ConfirmQueue/), effect: "Allow" },
      {
        actions: ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
        resource: table(),
        effect: "Allow",
      },
      { actions: ["sns:Publish"], resource: topic(), effect: "Allow" },
      { actions: ["kms:GenerateDataKey", "kms:Decrypt"], resource: key(), effect: "Allow" },
      // Told of a record set aside (packages/core/src/setaside), and its owed mark cleared: deletes
      // in those marks' partitions alone.
      { actions: ["sns:Publish"], resource: opsTopic(), effect: "Allow" },
      {
        actions: ["dynamodb:DeleteItem"],
        resource: table(),
        effect: "Allow",
        condition: { "ForAllValues:StringLike": { "dynamodb:LeadingKeys": ["SETASIDEOWED#*"] } },
      },
      {
        actions: ["sqs:SendMessage"],
        resource: [queueArn(/^EvidenceQueue/), queueArn(/^ConfirmQueue/), queueArn(/^EscalationQueue/)],
        effect: "Allow",
      },
      { actions: ["sqs:SendMessage"], resource: queueArn(/^WebhookQueue/), effect: "Allow" },
    ]);
  });

  it("gives the evidence function object actions on the evidence prefix only", () => {
    expect(withoutSecrets(/^EvidenceServiceRoleDefaultPolicy/)).toEqual([
      { actions: consume, resource: queueArn(/^EvidenceQueue/), effect: "Allow" },
      // Alert records, parked jobs and the at-risk notice's claim: items, no scan, no batch.
      {
        actions: [
          "dynamodb:GetItem",
          "dynamodb:UpdateItem",
          "dynamodb:PutItem",
          "dynamodb:Query",
          "dynamodb:DeleteItem",
        ],
        resource: table(),
        effect: "Allow",
      },
      { actions: ["sns:Publish"], resource: topic(), effect: "Allow" },
      { actions: ["kms:GenerateDataKey", "kms:Decrypt"], resource: key(), effect: "Allow" },
      { actions: ["sqs:SendMessage"], resource: queueArn(/^EvidenceQueue/), effect: "Allow" },
      {
        actions: ["s3:ListBucket"],
        resource: arn(logicalId("AWS::S3::Bucket", /^EvidenceBucket/)),
        effect: "Allow",
      },
      { actions: ["s3:GetObject", "s3:PutObject"], resource: objects(/^EvidenceBucket/), effect: "Allow" },
      {
        actions: ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"],
        resource: objects(/^StagingBucket/),
        effect: "Allow",
      },
      // Claim-pack zips: listings of packs/ only, and its objects.
      {
        actions: ["s3:ListBucket"],
        resource: arn(logicalId("AWS::S3::Bucket", /^StagingBucket/)),
        effect: "Allow",
        condition: { StringLike: { "s3:prefix": ["packs/*"] } },
      },
      {
        actions: ["s3:GetObject", "s3:PutObject", "s3:AbortMultipartUpload"],
        resource: { "Fn::Join": ["", [arn(logicalId("AWS::S3::Bucket", /^StagingBucket/)), "/packs/*"]] },
        effect: "Allow",
      },
    ]);
  });

  it("has no wildcard action and no * resource in any policy of ours", () => {
    for (const pattern of [/^PollerServiceRole/, /^ConfirmServiceRole/, /^EvidenceServiceRole/]) {
      for (const statement of statementsOf(pattern)) {
        for (const action of statement.actions) expect(action).not.toContain("*");
        expect(statement.resource).not.toBe("*");
      }
    }
  });

  it("passes cdk-nag's AwsSolutions checks with no unsuppressed error", () => {
    expect(nagErrors).toEqual([]);
  });
});

describe("alarms and dashboard", () => {
  it("alarm to the ops topic on errors, lag, dead letters, evidence failures and rejected events", () => {
    const alarms = ofType("AWS::CloudWatch::Alarm");
    expect(alarms.map(([id]) => id.replace(/[0-9A-F]{8}$/, "")).sort()).toEqual([
      "ConfirmDlqNotEmpty",
      "CursorLagnorth",
      "CursorLagsouth",
      "EscalationDlqNotEmpty",
      "EvidenceDlqNotEmpty",
      "EvidenceFailures",
      "NoticesErrors",
      "PollerErrors",
      "RejectedEvents",
      "SmsSpend",
      "WebhookDlqNotEmpty",
    ]);
    for (const [, alarm] of alarms)
      expect(alarm.Properties.AlarmActions).toEqual([{ Ref: logicalId("AWS::SNS::Topic", /^OpsTopic/) }]);
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "CursorLagSeconds",
      Namespace: "FleetAlerts",
      Threshold: 300,
      Dimensions: Match.arrayWith([
        { Name: "account", Value: "north" },
        { Name: "service", Value: "fleet-alerts" },
      ]),
      TreatMissingData: "breaching",
    });
    template.hasResourceProperties("AWS::CloudWatch::Alarm", {
      MetricName: "EventsRejected",
      Statistic: "Sum",
      Threshold: 1,
    });
  });

  it("has one dashboard of the pipeline's metrics", () => {
    template.resourceCountIs("AWS::CloudWatch::Dashboard", 1);
    const body = JSON.stringify(ofType("AWS::CloudWatch::Dashboard")[0]?.[1].Properties.DashboardBody);
    for (const name of ["EventsRead", "AlertsPublished", "CursorLagSeconds", "EventsRejected"])
      expect(body).toContain(name);
  });
});
