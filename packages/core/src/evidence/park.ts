import type { EvidenceDependencies } from "./collect.js";
import { alertOf, type EvidenceJob, jobIds } from "./job.js";
import type { ParkedJob } from "./ports.js";
import { type FootageDeadline, waitRecord } from "./waiting.js";

/**
 * Parks a job whose footage is not on the device cloud while its device is offline: the job is kept
 * in the table (no message, no call to the device cloud) until the poller reads the device's Online
 * event or the sweep finds it online (wake.ts), or its deadline passes (sweep.ts).
 *
 * The item first, then the alert record's `waiting` status: a crash between the two leaves the job
 * parked and the record `pending`, and SQS delivers the job again (it was not deleted), which parks
 * it again, finds its item, and writes the status. The status write is conditional on the evidence
 * not having settled, in case the device came back and the job was woken and stored in between.
 */
export async function parkJob(
  job: EvidenceJob,
  deadline: FootageDeadline,
  deps: Pick<EvidenceDependencies, "parked" | "alerts" | "observer" | "now">,
): Promise<ParkedJob> {
  const nowMs = deps.now();
  const parked = await deps.parked.park({
    // Woken, it starts again at the first short wait: the footage is due as soon as the vehicle is back.
    job: { ...job, attempt: 0 },
    parkedAtMs: nowMs,
    // Offline since at least now: the online list does not say since when, and the all-devices
    // list's `updatetime` is not shown to be a device's last contact, so neither is guessed from.
    offlineSinceMs: nowMs,
    ...deadline,
  });
  const { offlineSinceMs, keptUntilMs, retentionDays } = parked;
  await deps.alerts.setEvidenceWaiting(alertOf(job), { offlineSinceMs, keptUntilMs, retentionDays });
  deps.observer.observe({ type: "evidence-parked", ...jobIds(job), ...waitRecord(parked) });
  return parked;
}
