import type { AlertPublisher, AlertRecords } from "../alerts/ports.js";
import { awsJson } from "../aws-text.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { NoticeClaims } from "../notices/claims.js";
import { deliverOnce, noticeId } from "../notices/deliver-once.js";
import type { Observer } from "../observer.js";
import { type JobQueue, sendEvery } from "../queue/ports.js";
import { expiresAfterDays, keys } from "../store/keys.js";
import { EVIDENCE_CLAIM_LEASE_MS } from "./announce-once.js";
import { atRiskAnnouncement } from "./announcement.js";
import { alertOf, jobIds } from "./job.js";
import { evidenceRecipients, messagesTo } from "./notice-recipients.js";
import type { ParkedEvidence, ParkedJob } from "./ports.js";
import { atRiskFromMs, waitRecord } from "./waiting.js";
import { wakeParked } from "./wake.js";

/** The at-risk claim outlives the job's deadline by this much: a late sweep still finds it sent. */
const AT_RISK_CLAIM_KEPT_DAYS = 30;

export interface SweepDependencies {
  parked: ParkedEvidence;
  client: Pick<DeviceCloud, "onlineDevices">;
  /** The evidence queue (the sweep runs in the evidence function): woken and given-up jobs go back to it. */
  requeue: JobQueue;
  alerts: Pick<AlertRecords, "get">;
  publisher: AlertPublisher;
  /** The at-risk notice's claim, one per alert (notices/deliver-once.ts). */
  claims: NoticeClaims;
  observer: Observer;
  now: () => number;
  /** The real clock the at-risk claims are timed on (never the local mode's fast `now`). */
  wallClock: () => number;
  /** An alert's incident page (evidence/collect.ts `incidentLink`); unset: notices carry no link. */
  incidentLink?: (alertId: string) => string;
}

export interface SweepTally {
  parked: number;
  woken: number;
  givenUp: number;
  atRisk: number;
}

/**
 * The occasional check of an account's parked evidence, bounded: no device-cloud call for an account
 * with nothing parked, else ONE online-list call, whatever the number of jobs. A job whose device is
 * online is woken (its Online event was missed, or it parked as the device reconnected); one past
 * its deadline is given up: sent back marked `overwritten`, so that the evidence function writes the
 * bag without video and says why; one past half of its wait gets its "footage at risk" notice, once.
 * A failure of one job's step is thrown after the others have run (the sweep is retried whole: each
 * step is idempotent).
 */
export async function sweepParkedEvidence(account: string, deps: SweepDependencies): Promise<SweepTally> {
  const tally: SweepTally = { parked: 0, woken: 0, givenUp: 0, atRisk: 0 };
  const failures: Error[] = [];
  let online: ReadonlySet<string> | undefined;
  for await (const page of deps.parked.ofAccount(account)) {
    online ??= new Set((await deps.client.onlineDevices()).map((device) => device.deviceid));
    const nowMs = deps.now();
    const back = page.filter((parked) => online?.has(parked.job.deviceid));
    const away = page.filter((parked) => !online?.has(parked.job.deviceid));
    await wakeParked(back, "online-list", { ...deps, evidenceQueue: deps.requeue });
    tally.woken += back.length;
    for (const parked of away) {
      try {
        if (nowMs >= parked.keptUntilMs) {
          await giveUp(parked, deps);
          tally.givenUp++;
        } else if (
          !parked.atRiskNoticeSent &&
          nowMs >= atRiskFromMs(Date.parse(parked.job.eventtime), parked.keptUntilMs)
        ) {
          if (await tellAtRisk(parked, deps)) tally.atRisk++;
          tally.parked++;
        } else tally.parked++;
      } catch (error) {
        failures.push(error as Error);
      }
    }
  }
  if (failures.length > 0)
    throw new Error(
      `parked evidence of ${account}: ${failures.length} job(s) failed, first: ${failures[0]?.message}`,
    );
  return tally;
}

/** Sent back marked overwritten, then removed (send then delete, as a wake). */
async function giveUp(parked: ParkedJob, deps: SweepDependencies): Promise<void> {
  await sendEvery(deps.requeue, [{ body: awsJson({ ...parked.job, overwritten: waitRecord(parked) }) }]);
  await deps.parked.remove(parked);
}

/**
 * "Footage at risk" to the alert's email recipients, once per alert: claimed on its own item, sent,
 * marked (deliverOnce: a crash before the mark sends again after the claim's lease, never zero
 * times); then the parked item remembers it, so that later sweeps read nothing for it. True when
 * this sweep sent it.
 */
async function tellAtRisk(parked: ParkedJob, deps: SweepDependencies): Promise<boolean> {
  const { job } = parked;
  const key = alertOf(job);
  const to = evidenceRecipients(await deps.alerts.get(key.account, key.serialno, key.ruleId));
  // The alert's own link, when its messages carried it (its grant exists).
  const message = atRiskAnnouncement(
    job,
    parked,
    job.incidentLink ? deps.incidentLink?.(job.alertId) : undefined,
  );
  const outcome = await deliverOnce(
    {
      id: noticeId("evidence-at-risk", job.alertId),
      key: { pk: keys.account(job.account), sk: keys.atRiskNotice(key.serialno, key.ruleId) },
      expiresAt: expiresAfterDays(parked.keptUntilMs, AT_RISK_CLAIM_KEPT_DAYS),
      // The sweep runs in the evidence function, which may live 15 minutes.
      leaseMs: EVIDENCE_CLAIM_LEASE_MS,
    },
    async () => messagesTo(to, message),
    deps,
  );
  if (outcome === "busy") return false;
  await deps.parked.markAtRiskNoticeSent(parked);
  if (outcome !== "sent") return false;
  deps.observer.observe({
    type: "evidence-at-risk",
    ...jobIds(job),
    ...waitRecord(parked),
    recipients: to.length,
  });
  return true;
}
