import { SQS_MAX_DELAY_SECONDS } from "../aws-limits.js";
import { awsJson } from "../aws-text.js";
import { sendEvery } from "../queue/ports.js";
import type { EvidenceDependencies, EvidenceOutcome, EvidenceSettings } from "./collect.js";
import { type EvidenceJob, jobIds } from "./job.js";
import type { Footage } from "./manifest.js";
import { parkJob } from "./park.js";
import { footageDeadline, notRecordedStep, waitRecord } from "./waiting.js";
import { type Coverage, coverage, type EvidenceWindow, recordDaysTouched, recordedAfter } from "./window.js";

/** Whether a job's footage is on the device cloud, and if not, what the job did or what became of it. */
export type FootageCheck =
  | { kind: "recorded"; coverage: Coverage & { recordedSpan: EvidenceWindow } }
  /** Nothing more will come: the bag is written without video, `footage` saying why. */
  | { kind: "given-up"; coverage: Coverage; footage: Exclude<Footage, { outcome: "recorded" }> }
  /** Sent back to look again later, or parked until the device is online: nothing to store now. */
  | { kind: "waiting"; outcome: EvidenceOutcome };

/**
 * Reads the window's record maps (two days at most, of 1,440 values each: the job's window is at most
 * an hour each side, job.ts). Without video there, one online-list call says whether the device is
 * online (absent from the list: offline; the spec shows no other sign of it) and the card's retention
 * gives the deadline (waiting.ts): online, look again later; offline, park; past the deadline, or with
 * the card recorded past the window, give up. A job the sweep gave up as overwritten reads nothing.
 */
export async function checkFootage(
  job: EvidenceJob,
  window: EvidenceWindow,
  settings: Pick<EvidenceSettings, "utcOffsetMinutes" | "maxWaitDays" | "retryDelaySeconds">,
  deps: EvidenceDependencies,
): Promise<FootageCheck> {
  if (job.overwritten)
    return {
      kind: "given-up",
      coverage: coverage(window, []),
      footage: { outcome: "overwritten", ...job.overwritten },
    };
  const maps = await Promise.all(
    recordDaysTouched(window, settings.utcOffsetMinutes).map(async (dateSeconds) => ({
      dateSeconds,
      map: await deps.client.dailyRecordMap({ deviceid: job.deviceid, date: dateSeconds }),
    })),
  );
  const recorded = coverage(window, maps);
  if (recorded.recordedSpan)
    return { kind: "recorded", coverage: { ...recorded, recordedSpan: recorded.recordedSpan } };
  if (recordedAfter(window, maps))
    return { kind: "given-up", coverage: recorded, footage: { outcome: "not-recorded" } };

  const eventMs = Date.parse(job.eventtime);
  const [retentionDays, online] = await Promise.all([
    deps.retention.retentionDays(job.account, job.deviceid),
    deps.client.onlineDevices().then((devices) => devices.some((device) => device.deviceid === job.deviceid)),
  ]);
  const deadline = footageDeadline(eventMs, retentionDays, settings.maxWaitDays);
  const nowMs = deps.now();
  const step = notRecordedStep({
    recordedAfterWindow: false,
    online,
    pastDeadline: nowMs >= deadline.keptUntilMs,
  });
  switch (step.kind) {
    case "give-up":
      return {
        kind: "given-up",
        coverage: recorded,
        footage:
          step.footage === "overwritten"
            ? { outcome: "overwritten", ...waitRecord({ offlineSinceMs: nowMs, ...deadline }) }
            : { outcome: "not-recorded" },
      };
    case "park":
      await parkJob(job, deadline, deps);
      return { kind: "waiting", outcome: { kind: "parked" } };
    case "look-again": {
      // Online but not uploaded yet: look again later, waiting longer each time.
      const retryInSeconds = Math.min(SQS_MAX_DELAY_SECONDS, settings.retryDelaySeconds * 2 ** job.attempt);
      await sendEvery(deps.requeue, [
        { body: awsJson({ ...job, attempt: job.attempt + 1 }), delaySeconds: retryInSeconds },
      ]);
      deps.observer.observe({
        type: "evidence-waiting",
        ...jobIds(job),
        retryInSeconds,
        attempt: job.attempt,
      });
      return { kind: "waiting", outcome: { kind: "not-recorded-yet", retryInSeconds } };
    }
  }
}
