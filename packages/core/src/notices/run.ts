import type { DeliveryOutcome } from "./deliver-once.js";
import type { NoticesDependencies } from "./dependencies.js";
import { sendDigest } from "./digest.js";
import { sendQuietSummaries } from "./quiet-summary.js";
import { sendSmsSummaries, smsRecipients } from "./sms-summary.js";

/** What one run did: notices sent by kind, and those another run held a live claim on. */
export interface NoticesSummary {
  quietSummaries: number;
  digests: number;
  smsSummaries: number;
  busy: number;
  /** Set-aside records ops were told of by the sweep: their teller had died. */
  setAsideTold: number;
}

/** One failed task or more; the others ran. Names the notices, never a recipient or a link. */
export class NoticesError extends Error {
  override readonly name = "NoticesError";
  constructor(readonly failures: readonly unknown[]) {
    super(
      `${failures.length} notice task(s) failed, retried by a later run: ${failures
        .map((failure) => (failure instanceof Error ? failure.message : String(failure)))
        .join("; ")}`,
    );
  }
}

/**
 * One scheduled run: every group's ended quiet windows and due digest, every SMS recipient's capped
 * hours, and each account's sweep of set-aside notices left owed. Each task is independent (a failing group delays no other) and idempotent (claims), so
 * runs may overlap or repeat; a failure is thrown after the rest ran, for the errors alarm.
 */
export async function runNotices(deps: NoticesDependencies): Promise<NoticesSummary> {
  const nowMs = deps.now();
  const summary: NoticesSummary = {
    quietSummaries: 0,
    digests: 0,
    smsSummaries: 0,
    busy: 0,
    setAsideTold: 0,
  };
  const tally =
    (kind: "quietSummaries" | "digests" | "smsSummaries") => (outcomes: (DeliveryOutcome | undefined)[]) => {
      for (const outcome of outcomes) {
        if (outcome === "sent") summary[kind] += 1;
        if (outcome === "busy") summary.busy += 1;
      }
    };
  const tasks = [
    ...deps.groups.groups.flatMap((group) => [
      sendQuietSummaries(group, deps, nowMs).then(tally("quietSummaries")),
      sendDigest(group, deps, nowMs).then((outcome) => tally("digests")([outcome])),
    ]),
    ...smsRecipients(deps.groups, deps.fleetTimeZone).map((recipient) =>
      sendSmsSummaries(recipient, deps, nowMs).then(tally("smsSummaries")),
    ),
    ...(deps.setAsideSweep?.accounts ?? []).map((account) =>
      deps.setAsideSweep?.setAside.tellOwed(account).then((told) => {
        summary.setAsideTold += told;
      }),
    ),
  ];
  const failures = (await Promise.allSettled(tasks)).flatMap((result) =>
    result.status === "rejected" ? [result.reason as unknown] : [],
  );
  if (failures.length > 0) throw new NoticesError(failures);
  return summary;
}
