import type { OverwrittenFootage } from "./manifest.js";

// How long footage not on the device cloud yet is waited for, and what a job does meanwhile (pure).

const DAY_MS = 86_400_000;

/** Until when an alert's footage is waited for, and the card retention that deadline came from. */
export interface FootageDeadline {
  keptUntilMs: number;
  /** Days the device's card keeps its footage; null while unknown (the stage's maximum wait applies). */
  retentionDays: number | null;
}

/**
 * The card keeps footage `retentionDays` after it was recorded, so the event's footage is gone
 * about that long after the event. The stage's maximum caps it (a wrong estimate of a year must not
 * keep a job for a year) and stands in for a retention nobody knows yet.
 */
export function footageDeadline(
  eventMs: number,
  retentionDays: number | undefined,
  maxWaitDays: number,
): FootageDeadline {
  const days = retentionDays === undefined ? maxWaitDays : Math.min(retentionDays, maxWaitDays);
  return { keptUntilMs: eventMs + days * DAY_MS, retentionDays: retentionDays ?? null };
}

/** From when the footage is at risk: half of its time on the card has passed. */
export function atRiskFromMs(eventMs: number, keptUntilMs: number): number {
  return eventMs + (keptUntilMs - eventMs) / 2;
}

/** What a job does whose window the record maps show no video for. */
export type NotRecordedStep =
  /** The device is online: its upload may still come; look again after a growing delay. */
  | { kind: "look-again" }
  /** The device is offline: keep the job, asking nothing of the device cloud, until it is back. */
  | { kind: "park" }
  /** Nothing more will come: the bag is written without video, saying why. */
  | { kind: "give-up"; footage: "not-recorded" | "overwritten" };

export interface NotRecordedFacts {
  /** The maps show the card past the window (recordedAfter): the window's gap is final. */
  recordedAfterWindow: boolean;
  /** In the device cloud's online list now. */
  online: boolean;
  /** The footage deadline has passed. */
  pastDeadline: boolean;
}

export function notRecordedStep({
  recordedAfterWindow,
  online,
  pastDeadline,
}: NotRecordedFacts): NotRecordedStep {
  if (recordedAfterWindow) return { kind: "give-up", footage: "not-recorded" };
  // Past the deadline an offline card has looped over the window; an online one never recorded it.
  if (pastDeadline) return { kind: "give-up", footage: online ? "not-recorded" : "overwritten" };
  return online ? { kind: "look-again" } : { kind: "park" };
}

/** A wait as written down (observations, the manifest of footage given up): instants as ISO 8601. */
export function waitRecord(wait: {
  offlineSinceMs: number;
  keptUntilMs: number;
  retentionDays: number | null;
}): OverwrittenFootage {
  return {
    offlineSince: new Date(wait.offlineSinceMs).toISOString(),
    keptUntil: new Date(wait.keptUntilMs).toISOString(),
    retentionDays: wait.retentionDays,
  };
}
