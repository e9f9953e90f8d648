import { awsJson } from "../aws-text.js";
import type { Observer } from "../observer.js";
import { type JobQueue, sendEvery } from "../queue/ports.js";
import { jobIds } from "./job.js";
import type { ParkedEvidence, ParkedJob } from "./ports.js";

export interface WakeDependencies {
  parked: Pick<ParkedEvidence, "remove">;
  evidenceQueue: JobQueue;
  observer: Observer;
}

/**
 * Sends parked jobs back to the evidence queue, then removes their items: send, then delete, so
 * that a crash in between sends them again rather than never. The evidence function takes a job
 * twice as once (a stored manifest means done; a stored clip is reused). Every message must go:
 * SQS took each job once already, so a refusal now is an error to retry, never a job dropped.
 */
export async function wakeParked(
  jobs: readonly ParkedJob[],
  by: "online-event" | "online-list",
  deps: WakeDependencies,
): Promise<void> {
  if (jobs.length === 0) return;
  await sendEvery(
    deps.evidenceQueue,
    jobs.map((parked) => ({ body: awsJson(parked.job) })),
  );
  for (const parked of jobs) {
    await deps.parked.remove(parked);
    deps.observer.observe({
      type: "evidence-woken",
      ...jobIds(parked.job),
      by,
      parkedAt: new Date(parked.parkedAtMs).toISOString(),
    });
  }
}

/** Devices whose parked jobs are read at once. */
const DEVICES_AT_ONCE = 8;

/**
 * Wakes the parked jobs of devices whose Online event a chunk holds, a page of one device's jobs at
 * a time: none read for a chunk without an Online event, nor for an account with nothing parked
 * (one read of one item says so: most accounts, most of the time), else one Query per such device,
 * a few devices at once.
 */
export async function wakeDevices(
  account: string,
  deviceids: readonly string[],
  deps: WakeDependencies & { parked: Pick<ParkedEvidence, "anyOf" | "ofDevice" | "remove"> },
): Promise<void> {
  if (deviceids.length === 0 || !(await deps.parked.anyOf(account))) return;
  for (let start = 0; start < deviceids.length; start += DEVICES_AT_ONCE)
    await Promise.all(
      deviceids.slice(start, start + DEVICES_AT_ONCE).map(async (deviceid) => {
        for await (const page of deps.parked.ofDevice(account, deviceid))
          await wakeParked(page, "online-event", deps);
      }),
    );
}
