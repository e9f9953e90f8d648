import type { AlertRecords } from "../alerts/ports.js";
import type { AlertRecord, NewAlertRecord } from "../alerts/record.js";
import { awsJson } from "../aws-text.js";
import { type JobQueue, sendEvery } from "../queue/ports.js";
import type { AccessRecords, ShareLinks } from "../share/ports.js";
import type { CreatedShare } from "../share/share-store.js";
import { type FootageRequestInput, NO_EVENT_CODE, requestedAlert } from "./footage-request.js";
import { evidenceJobOf } from "./job.js";
import type { FootageRequest } from "./request-custody.js";

export interface FootageRequestDependencies {
  alerts: Pick<AlertRecords, "record" | "get" | "markHandedOn">;
  evidenceQueue: JobQueue;
  shares: Pick<ShareLinks, "create">;
  audit: Pick<AccessRecords, "record">;
  now: () => number;
}

export interface FootageRequestOutcome {
  alertId: string;
  /** False when the same footage was asked for before: this is that request's record and pack. */
  first: boolean;
  /** The request as its record keeps it (the first one's, when asked again). */
  request: FootageRequest;
  /** The pack was settled already (its evidence stored or given up): no job was sent again. */
  settled: boolean;
  /** A new view link to the request's incident page; the token is for the requester alone. */
  link: CreatedShare;
}

/** What the command line records as the access's user agent: the audit's own field, not a browser. */
const REQUESTER_AGENT = "fleet-alerts evidence request";

/**
 * Asks for the claim pack of a moment no alert was raised for: the request's alert record (sent to
 * no one), the same evidence job the poller would send, a view link for the requester and an audit
 * entry of who asked and why. Asking again for the same footage finds the same record: its job is
 * sent again unless the pack is settled (a crash between the record and the job loses nothing; the
 * evidence function is idempotent by alert id), and the new link and audit entry are this asker's.
 */
export async function requestFootage(
  input: FootageRequestInput,
  linkLifetimeMs: number,
  deps: FootageRequestDependencies,
): Promise<FootageRequestOutcome> {
  const nowMs = deps.now();
  const alert = requestedAlert(input);
  const request = { reason: input.reason, requestedBy: input.requestedBy, requestedAt: iso(nowMs) };
  const first = await deps.alerts.record(requestRecord(input, request), nowMs);
  const record = await deps.alerts.get(alert.account, alert.serialno, alert.ruleId);
  if (!isRequestRecord(record))
    throw new Error(`${alert.alertId} is not a footage request's record: nothing was sent`);
  const settled = record.evidenceStatus === "stored" || record.evidenceStatus === "unavailable";
  if (!settled) {
    await sendEvery(deps.evidenceQueue, [
      {
        body: awsJson(
          evidenceJobOf(record, record.evidence, { incidentLink: false, request: record.request }),
        ),
      },
    ]);
    await deps.alerts.markHandedOn(record, nowMs);
  }
  const link = await deps.shares.create(
    { ...alert, scope: "view", expiresAtMs: nowMs + linkLifetimeMs, createdBy: input.requestedBy },
    nowMs,
  );
  await deps.audit.record({
    alertId: alert.alertId,
    tokenId: link.tokenId,
    action: "evidence-request",
    userAgent: REQUESTER_AGENT,
    atMs: nowMs,
    by: input.requestedBy,
    reason: input.reason,
  });
  return { alertId: alert.alertId, first, request: record.request, settled, link };
}

/**
 * The request's alert record: `requested` (published to no one), severity info, the moment as its
 * event time; its `event` is the request as made, which the bag keeps as `data/event.json`.
 */
function requestRecord(input: FootageRequestInput, request: FootageRequest): NewAlertRecord {
  const { account, serialno, ruleId } = requestedAlert(input);
  const evidence = {
    channels: input.channels,
    secondsBefore: input.secondsBefore,
    secondsAfter: input.secondsAfter,
  };
  const asMade = {
    kind: "footage-request",
    deviceid: input.deviceid,
    at: iso(input.atMs),
    ...evidence,
    ...request,
  };
  return {
    account,
    serialno,
    ruleId,
    deviceid: input.deviceid,
    appdevid: NO_EVENT_CODE,
    eventtime: iso(input.atMs),
    severity: "info",
    status: "requested",
    evidence,
    event: JSON.stringify(asMade),
    request,
  };
}

type RequestRecord = AlertRecord & Required<Pick<AlertRecord, "evidence" | "request">>;

function isRequestRecord(record: AlertRecord | undefined): record is RequestRecord {
  return record?.request !== undefined && record.evidence !== undefined;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
