import type { StackContext } from "sst/constructs";
import { loadRulesFile } from "../packages/core/src/rules/load.js";
import { buildAlerting } from "./alerting.js";
import { buildEscalation } from "./escalation.js";
import { buildEvidence } from "./evidence.js";
import { buildFunctionBase } from "./functions.js";
import { buildIncidentApi, buildIncidentFunction } from "./incident.js";
import { checkClaimLeases } from "./leases.js";
import { suppressNagFindings } from "./nag.js";
import { buildNotices } from "./notices.js";
import { buildObservability } from "./observability.js";
import { buildPolling } from "./polling.js";
import { buildQueues } from "./queues.js";
import { buildRecorderAudit } from "./recorder-audit.js";
import { stageRouting } from "./routing.js";
import { loadStageConfig } from "./stage-config.js";
import { buildStorage } from "./storage.js";
import { buildWebhooks, grantSendWebhookJobs } from "./webhooks.js";

/**
 * The whole pipeline of one stage: table, topics, queues, buckets, functions, schedule, the incident
 * pages' HTTP API, alarms and dashboard. Grants are explicit and named (no SST `bind` of tables or buckets: it grants
 * `dynamodb:*` and `s3:*`); only secrets are bound (the incident form's, the link secret), which grants exactly their SSM
 * parameters; the device-cloud accounts' secrets are read under one path each (functions.ts).
 *
 * Every builder creates its constructs directly in the stack, under the IDs they have always had:
 * a construct moved into a new scope would get a new logical ID, and CloudFormation would replace
 * it (test/infra/logical-ids.test.ts).
 */
export async function Pipeline({ stack, app }: StackContext) {
  // A claim's lease must outlive every function that may hold it, or a live claim is taken over.
  checkClaimLeases();
  const config = loadStageConfig(stack.stage);
  // An invalid rules file fails the synth here, before it is bundled.
  for (const { rulesFile } of config.accounts) if (rulesFile) await loadRulesFile(rulesFile);
  // And an invalid groups file, or one that leaves a critical rule of an account unheard.
  const groups = await stageRouting(config.groupsFile, config.accounts, config.opsEmails);

  const storage = buildStorage(stack, config);
  const alerting = buildAlerting(stack, config, groups);
  const queues = buildQueues(stack);
  const incidentApi = buildIncidentApi(stack, config);
  const base = buildFunctionBase(config, storage, alerting, queues, incidentApi.publicBaseUrl);
  const { poller, confirm, linkSecret } = buildPolling(stack, config, base, storage, alerting, queues);
  const evidence = buildEvidence(stack, config, base, storage, alerting, queues, linkSecret);
  const incident = buildIncidentFunction(stack, config, base, storage, queues, incidentApi);
  const { escalationTopic, escalate } = buildEscalation(
    stack,
    config,
    base,
    storage,
    alerting,
    queues,
    linkSecret,
  );
  const notices = buildNotices(
    stack,
    config.groupsFile,
    base,
    storage,
    alerting,
    linkSecret,
    config.recorderAudit,
  );

  const recorderAudit = buildRecorderAudit(stack, config, base, storage, alerting, linkSecret);

  const webhooks = buildWebhooks(stack, base, storage, alerting, linkSecret, config.groupsFile);
  for (const publisher of [poller, confirm, recorderAudit]) grantSendWebhookJobs(publisher, webhooks);

  suppressNagFindings(
    stack,
    {
      functions: [poller, confirm, evidence, incident, escalate, webhooks.webhook, recorderAudit, notices],
      evidence,
      incident,
      incidentApi,
      deviceCloudReaders: [poller, confirm, evidence, recorderAudit],
    },
    storage,
  );
  buildObservability(stack, {
    config,
    dashboardName: `${app.name}-${stack.stage}`,
    opsTopic: alerting.opsTopic,
    poller,
    evidence,
    queues,
  });

  stack.addOutputs({
    Stage: stack.stage,
    TableName: storage.table.tableName,
    AlertsTopicArn: alerting.alertsTopic.topicArn,
    OpsTopicArn: alerting.opsTopic.topicArn,
    EvidenceBucket: storage.evidenceBucket.bucketName,
    EvidenceQueueUrl: queues.evidenceQueue.queueUrl,
    EscalationTopicArn: escalationTopic.topicArn,
    WebhookDlqUrl: webhooks.webhookDlq.queueUrl,
    IncidentBaseUrl: incidentApi.publicBaseUrl,
    // `fleet-alerts share create` caps --expires to this (SHARE_MAX_DAYS), with PUBLIC_BASE_URL above.
    ShareMaxDays: String(config.shareMaxDays),
    // The DNS record of the custom domain points here (a CNAME or an alias).
    ...(incidentApi.domain && { IncidentDomainTarget: incidentApi.domain.regionalDomainName }),
  });
  return {
    table: storage.table,
    alertsTopic: alerting.alertsTopic,
    opsTopic: alerting.opsTopic,
    evidenceQueue: queues.evidenceQueue,
    evidenceDlq: queues.evidenceDlq,
    confirmQueue: queues.confirmQueue,
    escalationQueue: queues.escalationQueue,
    escalationTopic,
    webhookQueue: webhooks.webhookQueue,
    webhookDlq: webhooks.webhookDlq,
    incidentApi: incidentApi.api,
    evidenceBucket: storage.evidenceBucket,
    stagingBucket: storage.stagingBucket,
    poller,
    confirm,
    evidence,
    incident,
    escalate,
    notices,
    recorderAudit,
    webhook: webhooks.webhook,
  };
}
