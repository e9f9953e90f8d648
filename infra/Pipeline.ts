import { readFileSync } from "node:fs";
import { Duration, RemovalPolicy } from "aws-cdk-lib";
import * as cloudwatch from "aws-cdk-lib/aws-cloudwatch";
import * as actions from "aws-cdk-lib/aws-cloudwatch-actions";
import * as dynamodb from "aws-cdk-lib/aws-dynamodb";
import * as events from "aws-cdk-lib/aws-events";
import * as targets from "aws-cdk-lib/aws-events-targets";
import * as iam from "aws-cdk-lib/aws-iam";
import * as kms from "aws-cdk-lib/aws-kms";
import { SqsEventSource } from "aws-cdk-lib/aws-lambda-event-sources";
import * as logs from "aws-cdk-lib/aws-logs";
import * as s3 from "aws-cdk-lib/aws-s3";
import * as sns from "aws-cdk-lib/aws-sns";
import * as subscriptions from "aws-cdk-lib/aws-sns-subscriptions";
import * as sqs from "aws-cdk-lib/aws-sqs";
import { NagSuppressions } from "cdk-nag";
import { Config, Function as SstFunction, type StackContext } from "sst/constructs";
import { loadRulesFile } from "../packages/core/src/rules/load.js";
import { loadStageConfig } from "./stage-config.js";

function packageVersion(): string {
  return (JSON.parse(readFileSync("package.json", "utf8")) as { version: string }).version;
}

// Every function: Graviton, the latest Node.js Lambda runtime, minified bundles with source maps.
// No X-Ray: nothing emits traces, and its permissions cannot be scoped to a resource.
const FUNCTION_DEFAULTS = {
  runtime: "nodejs24.x",
  architecture: "arm_64",
  tracing: "disabled",
  nodejs: { format: "esm", minify: true, sourcemap: true },
} as const;

/** The Lambda deadline of the evidence function: a 30-minute clip (about 900 MB at 4 Mbit/s) must fit. */
const EVIDENCE_TIMEOUT = Duration.minutes(15);

/**
 * The whole pipeline of one stage: table, topics, queues, buckets, functions, schedule, alarms and
 * dashboard. Grants are explicit and named (no SST `bind` of tables or buckets: it grants
 * `dynamodb:*` and `s3:*`); only the device-cloud secrets are bound, which grants exactly their
 * two SSM parameters.
 */
export async function Pipeline({ stack, app }: StackContext) {
  const config = loadStageConfig(stack.stage);
  // An invalid rules file fails the synth here, before it is bundled.
  if (config.rulesFile) await loadRulesFile(config.rulesFile);
  const retain = config.production ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;

  // Read at run time from SSM, never written into the template: `npx sst secrets set NAME VALUE`.
  const secrets = Config.Secret.create(
    stack,
    "DEVICE_CLOUD_BASE_URL",
    "DEVICE_CLOUD_USERNAME",
    "DEVICE_CLOUD_PASSWORD",
  );

  const table = new dynamodb.Table(stack, "Table", {
    partitionKey: { name: "pk", type: dynamodb.AttributeType.STRING },
    sortKey: { name: "sk", type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    timeToLiveAttribute: "expiresAt",
    deletionProtection: config.production,
    encryption: dynamodb.TableEncryption.AWS_MANAGED,
    removalPolicy: retain,
  });

  const topicKey = new kms.Key(stack, "TopicKey", {
    description: "Encrypts the alerts and ops topics",
    enableKeyRotation: true,
    removalPolicy: retain,
  });
  // CloudWatch alarms publish to the (encrypted) ops topic: the key must let them.
  topicKey.grant(new iam.ServicePrincipal("cloudwatch.amazonaws.com"), "kms:Decrypt", "kms:GenerateDataKey");
  const alertsTopic = new sns.Topic(stack, "AlertsTopic", { masterKey: topicKey, enforceSSL: true });
  const opsTopic = new sns.Topic(stack, "OpsTopic", { masterKey: topicKey, enforceSSL: true });
  for (const email of config.alertEmails) {
    // Email for alerts and for "evidence ready" notices alike.
    alertsTopic.addSubscription(new subscriptions.EmailSubscription(email));
  }
  for (const number of config.smsNumbers) {
    alertsTopic.addSubscription(
      new subscriptions.SmsSubscription(number, {
        filterPolicy: {
          kind: sns.SubscriptionFilter.stringFilter({ allowlist: ["alert"] }),
          severity: sns.SubscriptionFilter.stringFilter({ allowlist: config.smsSeverities }),
        },
      }),
    );
  }
  for (const email of config.opsEmails) opsTopic.addSubscription(new subscriptions.EmailSubscription(email));

  const queue = (id: string, props: sqs.QueueProps = {}) =>
    new sqs.Queue(stack, id, { encryption: sqs.QueueEncryption.SQS_MANAGED, enforceSSL: true, ...props });
  const evidenceDlq = queue("EvidenceDlq", { retentionPeriod: Duration.days(14) });
  const EVIDENCE_MAX_RECEIVES = 5;
  const evidenceQueue = queue("EvidenceQueue", {
    // AWS advises six times the function's timeout, so a slow batch is never received twice at once.
    visibilityTimeout: Duration.seconds(EVIDENCE_TIMEOUT.toSeconds() * 6),
    retentionPeriod: Duration.days(4),
    deadLetterQueue: { queue: evidenceDlq, maxReceiveCount: EVIDENCE_MAX_RECEIVES },
  });
  const confirmDlq = queue("ConfirmDlq", { retentionPeriod: Duration.days(14) });
  const confirmQueue = queue("ConfirmQueue", {
    visibilityTimeout: Duration.minutes(6),
    deadLetterQueue: { queue: confirmDlq, maxReceiveCount: 5 },
  });

  // Who read or wrote evidence, for the insurers' audit trail; kept as long as the evidence.
  const accessLogs = new s3.Bucket(stack, "AccessLogs", {
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    encryption: s3.BucketEncryption.S3_MANAGED,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
    lifecycleRules: [{ expiration: Duration.days(Math.max(config.evidenceRetentionDays, 90)) }],
    removalPolicy: retain,
    autoDeleteObjects: !config.production,
  });
  const evidenceBucket = new s3.Bucket(stack, "EvidenceBucket", {
    serverAccessLogsBucket: accessLogs,
    serverAccessLogsPrefix: "evidence/",
    versioned: true,
    objectLockEnabled: true,
    objectLockDefaultRetention: s3.ObjectLockRetention.compliance(
      Duration.days(config.evidenceRetentionDays),
    ),
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    encryption: s3.BucketEncryption.S3_MANAGED,
    lifecycleRules: [
      {
        transitions: [
          {
            storageClass: s3.StorageClass.GLACIER_INSTANT_RETRIEVAL,
            transitionAfter: Duration.days(config.evidenceInfrequentAfterDays),
          },
        ],
      },
    ],
    // Locked objects cannot be deleted before their retention ends: the bucket always stays.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const stagingBucket = new s3.Bucket(stack, "StagingBucket", {
    serverAccessLogsBucket: accessLogs,
    serverAccessLogsPrefix: "staging/",
    blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
    enforceSSL: true,
    encryption: s3.BucketEncryption.S3_MANAGED,
    // Clips wait here only while they are verified; a crash leaves at most a day's leftovers.
    lifecycleRules: [{ expiration: Duration.days(1), abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    removalPolicy: retain,
    autoDeleteObjects: !config.production,
  });

  const rulesCopy = config.rulesFile ? { copyFiles: [{ from: config.rulesFile, to: "rules.json" }] } : {};
  const logGroup = (id: string) =>
    new logs.LogGroup(stack, `${id}Logs`, {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
  const common = {
    ...FUNCTION_DEFAULTS,
    bind: [secrets.DEVICE_CLOUD_BASE_URL, secrets.DEVICE_CLOUD_USERNAME, secrets.DEVICE_CLOUD_PASSWORD],
    environment: {
      TABLE_NAME: table.tableName,
      ALERTS_TOPIC_ARN: alertsTopic.topicArn,
      EVIDENCE_QUEUE_URL: evidenceQueue.queueUrl,
      CONFIRM_QUEUE_URL: confirmQueue.queueUrl,
      // No DEVICE_CLOUD_ACCOUNTS: the handlers make account "main" from the bound secrets at start.
      ...(config.rulesFile && { RULES_FILE: "rules.json" }),
      FLEET_TIME_ZONE: config.fleetTimeZone,
      POWERTOOLS_SERVICE_NAME: "fleet-alerts",
      FLEET_ALERTS_VERSION: packageVersion(),
    },
  };
  // Stack traces in the logs point at the TypeScript sources, through the bundled source maps. Not
  // in the evidence function: parsing the map cost it 25 MiB of its peak memory (npm run bench).
  const sourceMapped = { ...common.environment, NODE_OPTIONS: "--enable-source-maps" };

  const poller = new SstFunction(stack, "Poller", {
    ...common,
    logGroup: logGroup("Poller"),
    ...rulesCopy,
    handler: "packages/functions/src/poll.handler",
    // One poll a minute reads a page or a few; 60 s leaves room for a backlog and the margin.
    timeout: config.pollEverySeconds ? 60 * config.scheduleMinutes : 60,
    memorySize: 512,
    reservedConcurrentExecutions: 1,
    environment: {
      ...sourceMapped,
      ...(config.pollEverySeconds !== undefined && { POLL_EVERY_SECONDS: String(config.pollEverySeconds) }),
    },
  });
  // A run that waits behind a running one (reserved concurrency 1) is worthless a minute later: the
  // next scheduled run reads the same events. Drop it instead of letting invocations pile up.
  poller.configureAsyncInvoke({ maxEventAge: Duration.seconds(60), retryAttempts: 0 });
  new events.Rule(stack, "PollSchedule", {
    schedule: events.Schedule.rate(Duration.minutes(config.scheduleMinutes)),
    targets: [new targets.LambdaFunction(poller, { retryAttempts: 0 })],
  });

  const confirm = new SstFunction(stack, "Confirm", {
    ...common,
    logGroup: logGroup("Confirm"),
    ...rulesCopy,
    handler: "packages/functions/src/confirm.handler",
    timeout: 60,
    memorySize: 256,
    environment: sourceMapped,
  });
  confirm.addEventSource(new SqsEventSource(confirmQueue, { batchSize: 10, reportBatchItemFailures: true }));

  const evidence = new SstFunction(stack, "Evidence", {
    ...common,
    logGroup: logGroup("Evidence"),
    handler: "packages/functions/src/evidence.handler",
    timeout: EVIDENCE_TIMEOUT.toSeconds(),
    // A 30-minute clip streams through in 135-150 MiB at its peak (npm run bench); 512 MB buys the CPU
    // share to hash and move it well inside the deadline.
    memorySize: 512,
    environment: {
      ...common.environment,
      EVIDENCE_BUCKET: evidenceBucket.bucketName,
      EVIDENCE_STAGING_BUCKET: stagingBucket.bucketName,
      FLEET_UTC_OFFSET: config.fleetUtcOffset,
      EVIDENCE_GIVE_UP_HOURS: String(config.evidenceGiveUpHours),
      EVIDENCE_MAX_RECEIVES: String(EVIDENCE_MAX_RECEIVES),
    },
  });
  evidence.addEventSource(new SqsEventSource(evidenceQueue, { batchSize: 1, reportBatchItemFailures: true }));

  // ---- least privilege: named actions on named resources ----
  // BatchWriteItem: the poller writes rule states 25 at a time.
  const itemActions = [
    "dynamodb:GetItem",
    "dynamodb:PutItem",
    "dynamodb:UpdateItem",
    "dynamodb:DeleteItem",
    "dynamodb:Query",
    "dynamodb:BatchWriteItem",
  ];
  const allow = (fn: SstFunction, actionsList: string[], resources: string[]) =>
    fn.addToRolePolicy(new iam.PolicyStatement({ actions: actionsList, resources }));
  const publishAlerts = (fn: SstFunction) => {
    allow(fn, ["sns:Publish"], [alertsTopic.topicArn]);
    allow(fn, ["kms:GenerateDataKey", "kms:Decrypt"], [topicKey.keyArn]);
  };
  allow(poller, itemActions, [table.tableArn]);
  publishAlerts(poller);
  allow(poller, ["sqs:SendMessage"], [evidenceQueue.queueArn, confirmQueue.queueArn]);

  allow(
    confirm,
    ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:UpdateItem", "dynamodb:Query"],
    [table.tableArn],
  );
  publishAlerts(confirm);
  allow(confirm, ["sqs:SendMessage"], [evidenceQueue.queueArn, confirmQueue.queueArn]);

  allow(evidence, ["dynamodb:GetItem", "dynamodb:UpdateItem"], [table.tableArn]);
  publishAlerts(evidence);
  allow(evidence, ["sqs:SendMessage"], [evidenceQueue.queueArn]);
  // ListBucket lets a missing manifest answer 404 instead of 403.
  allow(evidence, ["s3:ListBucket"], [evidenceBucket.bucketArn]);
  allow(evidence, ["s3:GetObject", "s3:PutObject"], [evidenceBucket.arnForObjects("evidence/*")]);
  allow(
    evidence,
    ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:AbortMultipartUpload"],
    [stagingBucket.arnForObjects("evidence/*")],
  );

  // ---- cdk-nag (AwsSolutions): each suppression names its finding, its resource and its reason ----
  for (const fn of [poller, confirm, evidence]) {
    NagSuppressions.addResourceSuppressions(fn.role as iam.IRole, [
      {
        id: "AwsSolutions-IAM4",
        reason: "AWSLambdaBasicExecutionRole grants only CloudWatch Logs writes, which every function needs.",
        appliesTo: ["Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole"],
      },
    ]);
  }
  NagSuppressions.addResourceSuppressions(
    evidence.role as iam.IRole,
    [
      {
        id: "AwsSolutions-IAM5",
        reason:
          "Object ARNs under the evidence/ prefix: the narrowest form S3 offers for objects whose keys are made at run time.",
        appliesTo: [
          `Resource::<${stack.getLogicalId(evidenceBucket.node.defaultChild as s3.CfnBucket)}.Arn>/evidence/*`,
          `Resource::<${stack.getLogicalId(stagingBucket.node.defaultChild as s3.CfnBucket)}.Arn>/evidence/*`,
        ],
      },
    ],
    true,
  );
  const sstMetadataHandler = stack.node.tryFindChild("CustomResourceHandler");
  if (sstMetadataHandler) {
    NagSuppressions.addResourceSuppressions(
      sstMetadataHandler,
      [
        {
          id: "AwsSolutions-L1",
          reason: "SST's own stack-metadata handler; its runtime is SST's choice, not ours.",
        },
        {
          id: "AwsSolutions-IAM4",
          reason: "SST's own stack-metadata handler uses the basic execution role for its logs.",
          appliesTo: [
            "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole",
          ],
        },
      ],
      true,
    );
  }

  // ---- alarms and dashboard ----
  const metric = (name: string, statistic: string) =>
    new cloudwatch.Metric({
      namespace: "FleetAlerts",
      metricName: name,
      dimensionsMap: { service: "fleet-alerts", account: "main" },
      statistic,
      period: Duration.minutes(5),
    });
  const alarm = (id: string, props: cloudwatch.AlarmProps) => {
    const created = new cloudwatch.Alarm(stack, id, {
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      ...props,
    });
    created.addAlarmAction(new actions.SnsAction(opsTopic));
    return created;
  };
  const above = cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD;
  alarm("PollerErrors", {
    metric: poller.metricErrors({ period: Duration.minutes(5) }),
    threshold: 3,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: "The poller failed three times in five minutes: alerts are delayed.",
  });
  alarm("CursorLag", {
    metric: metric("CursorLagSeconds", "Maximum"),
    threshold: config.lagAlarmSeconds,
    evaluationPeriods: 2,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    // No data means the poller is not reporting at all: that is lag too.
    treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    alarmDescription: "The oldest unread event is older than the lag threshold.",
  });
  alarm("EvidenceDlqNotEmpty", {
    metric: evidenceDlq.metricApproximateNumberOfMessagesVisible(),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: "Evidence jobs failed for good: see the evidence function's logs for the reason.",
  });
  alarm("ConfirmDlqNotEmpty", {
    metric: confirmDlq.metricApproximateNumberOfMessagesVisible(),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: "Offline confirmations failed for good.",
  });
  alarm("EvidenceFailures", {
    metric: evidence.metricErrors({ period: Duration.minutes(5) }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription: "The evidence function failed.",
  });
  alarm("RejectedEvents", {
    metric: metric("EventsRejected", "Sum"),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: above,
    alarmDescription:
      "The device cloud sent events that do not match its spec; they are stored as REJECTED items.",
  });

  new cloudwatch.Dashboard(stack, "Dashboard", {
    dashboardName: `${app.name}-${stack.stage}`,
    widgets: [
      [
        new cloudwatch.GraphWidget({
          title: "Events and alerts",
          left: [
            metric("EventsRead", "Sum"),
            metric("AlertsPublished", "Sum"),
            metric("AlertsSuppressed", "Sum"),
          ],
        }),
        new cloudwatch.GraphWidget({
          title: "Cursor lag (s)",
          left: [metric("CursorLagSeconds", "Maximum")],
        }),
        new cloudwatch.GraphWidget({
          title: "Rejected and failed",
          left: [metric("EventsRejected", "Sum"), metric("AlertsFailed", "Sum")],
        }),
      ],
      [
        new cloudwatch.GraphWidget({
          title: "Poller",
          left: [poller.metricInvocations(), poller.metricErrors()],
          right: [poller.metricDuration()],
        }),
        new cloudwatch.GraphWidget({
          title: "Evidence",
          left: [evidence.metricInvocations(), evidence.metricErrors()],
          right: [evidence.metricDuration()],
        }),
        new cloudwatch.GraphWidget({
          title: "Queues",
          left: [
            evidenceQueue.metricApproximateNumberOfMessagesVisible(),
            evidenceDlq.metricApproximateNumberOfMessagesVisible(),
            confirmDlq.metricApproximateNumberOfMessagesVisible(),
          ],
        }),
      ],
    ],
  });

  stack.addOutputs({
    Stage: stack.stage,
    TableName: table.tableName,
    AlertsTopicArn: alertsTopic.topicArn,
    OpsTopicArn: opsTopic.topicArn,
    EvidenceBucket: evidenceBucket.bucketName,
    EvidenceQueueUrl: evidenceQueue.queueUrl,
  });
  return {
    table,
    alertsTopic,
    opsTopic,
    evidenceQueue,
    evidenceDlq,
    confirmQueue,
    evidenceBucket,
    stagingBucket,
    poller,
    confirm,
    evidence,
  };
}
