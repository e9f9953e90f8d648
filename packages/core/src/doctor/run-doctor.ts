import { checkIncidentPages, checkTsa } from "./addresses.js";
import { type Check, type DoctorReport, fail } from "./check.js";
import { checkDeadLetters } from "./dead-letters.js";
import { checkObjectLock } from "./object-lock.js";
import { checkLastPoll } from "./polls.js";
import type { DoctorPorts, DoctorTarget } from "./ports.js";
import { checkSchedules } from "./schedules.js";
import { checkAccountSecrets } from "./secrets.js";
import { checkSubscriptions } from "./subscriptions.js";

/** The longest one network call of a check may take; a whole check, twice that. */
export const DEFAULT_CALL_TIMEOUT_MS = 5_000;

/** A check's name, for the failed check that stands for it if it does not end in time, and the check. */
type Planned = [string, () => Promise<Check[]>];

export interface DoctorOptions {
  callTimeoutMs?: number;
}

/**
 * Every check of the stage, side by side. Each check settles on its own: one that throws or does
 * not finish in twice the call time-out is a failed check of its own name, and the others go on.
 * The order is fixed (accounts, schedules, queues, topics, bucket, addresses), whatever answers first.
 */
export async function runDoctor(
  target: DoctorTarget,
  ports: DoctorPorts,
  options: DoctorOptions = {},
): Promise<DoctorReport> {
  const timeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const nowMs = ports.now();
  const planned: Planned[] = [
    ...target.accounts.flatMap((account): Planned[] => [
      [
        `account ${account}: secrets`,
        () => checkAccountSecrets(account, ports.secrets, ports.login, timeoutMs),
      ],
      [
        `account ${account}: last poll`,
        () => checkLastPoll(account, ports.polls, { nowMs, lagThresholdSeconds: target.lagThresholdSeconds }),
      ],
    ]),
    ["schedules", () => checkSchedules(ports.schedules)],
    ...target.deadLetterQueues.map(
      (queue): Planned => [`dead letters: ${queue.name}`, () => checkDeadLetters(queue, ports.queues)],
    ),
    ...target.topics.map(
      (topic): Planned => [
        `subscriptions: ${topic.name}`,
        () => checkSubscriptions(topic, ports.subscriptions),
      ],
    ),
    ["evidence bucket: Object Lock", () => checkObjectLock(target.evidenceBucket, ports.objectLock)],
    ["Time-Stamp Authority", () => checkTsa(target.tsaUrl, ports.http, timeoutMs)],
    ["incident pages", () => checkIncidentPages(target.incidentBaseUrl, ports.http, timeoutMs)],
  ];
  const results = await Promise.all(planned.map(([name, run]) => withinTime(name, run, 2 * timeoutMs)));
  const checks = results.flat();
  return { stage: target.stage, ok: checks.every((check) => check.ok), checks };
}

async function withinTime(name: string, run: () => Promise<Check[]>, limitMs: number): Promise<Check[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Check[]>((resolve) => {
    timer = setTimeout(
      () =>
        resolve([
          fail(
            name,
            `no answer within ${limitMs} ms`,
            "check the network to the stage (or the local mode), then run doctor again",
          ),
        ]),
      limitMs,
    );
  });
  try {
    return await Promise.race([run(), late]);
  } finally {
    clearTimeout(timer);
  }
}
