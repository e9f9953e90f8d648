/**
 * What the local mode reports, one line at a time: every observation of the handlers, and a few
 * lines of its own. One reducer keeps the totals, and both views (the live view and `--json`) are
 * fed the same lines and the same totals, so they cannot disagree.
 */
import { type Observation, type ObservationType, observationSchema } from "@fleet-alerts/core";
import type { Notified } from "./recipients-inbox.js";

/** A clip copied from the emulated evidence bucket to the evidence folder. */
export interface CopiedClip {
  file: string;
  bytes: number;
  sha256: string;
}

/** The local mode's own lines. */
export type LocalOwnLine =
  | {
      type: "started";
      /** Each account polled: its simulator's URL, or the real device cloud's. */
      accounts: { id: string; deviceCloud: string }[];
      simulated: boolean;
      /** Per simulated fleet. */
      devices?: number;
      speed?: number;
      evidenceDir: string;
      /** The fauxqs endpoint (SNS, SQS, S3); dynalite's is beside it. */
      aws: { dynamodb: string; fauxqs: string };
      /** The incident pages' base URL on 127.0.0.1: links are `<incident>/i/<token>`. */
      incident: string;
      /** The groups file the handlers route by (GROUPS_FILE), with the local webhook's group if any. */
      groups: { file: string; names: string[] };
      /**
       * `--webhook`: the target's name, and its signing secret only when it was generated for this
       * run (the receiver needs it to verify); one set in WEBHOOK_SECRET is never shown.
       */
      webhook?: { target: string; generatedSecret?: string };
    }
  | { type: "problem"; message: string }
  /** Local only: a message a recipient's subscription received (who got what). */
  | Notified
  /** Local only: the stored evidence of an `evidence-stored`, now also in the evidence folder. */
  | {
      type: "evidence-copied";
      alertId: string;
      serialno: string;
      partial: boolean;
      clips: CopiedClip[];
      /** The claim pack's report.html in the evidence folder, to open in a browser. */
      report: string;
    }
  /** Local only, and never in `--json`: how a download is going. */
  | { type: "evidence-progress"; key: string; bytes: number; totalBytes?: number }
  | ({ type: "local-summary" } & LocalTotals);

export type LocalLine = Observation | LocalOwnLine;

export interface LocalTotals {
  /** Observations reported, by type (every type, zero when none). */
  observations: Record<ObservationType, number>;
  /** Events the polls read: the sum over `poll-summary` lines. */
  eventsRead: number;
  /** Evidence jobs queued by the polls and not yet stored, unavailable or finally failed. */
  evidencePending: number;
  /** The cursor lag the latest poll left. */
  lagSeconds: number;
  /** `problem` lines. */
  problems: number;
}

/** Every observation type, from the schema itself. */
export const OBSERVATION_TYPES: readonly ObservationType[] = observationSchema.options.map(
  (option) => option.shape.type.value,
);

export function isObservation(line: LocalLine): line is Observation {
  return (OBSERVATION_TYPES as readonly string[]).includes(line.type);
}

export function emptyTotals(): LocalTotals {
  return {
    observations: Object.fromEntries(OBSERVATION_TYPES.map((type) => [type, 0])) as Record<
      ObservationType,
      number
    >,
    eventsRead: 0,
    evidencePending: 0,
    lagSeconds: 0,
    problems: 0,
  };
}

/** The totals after one more line (a new object; `lines.reduce(tally, emptyTotals())`). */
export function tally(totals: LocalTotals, line: LocalLine): LocalTotals {
  if (line.type === "problem") return { ...totals, problems: totals.problems + 1 };
  if (!isObservation(line)) return totals;
  const next = {
    ...totals,
    observations: { ...totals.observations, [line.type]: totals.observations[line.type] + 1 },
  };
  switch (line.type) {
    case "poll-summary":
      next.eventsRead += line.eventsRead;
      next.evidencePending += line.evidenceJobs;
      next.lagSeconds = line.lagSeconds;
      break;
    case "evidence-stored":
    case "evidence-unavailable":
      next.evidencePending = Math.max(0, next.evidencePending - 1);
      break;
    case "evidence-failed":
      if (line.final) next.evidencePending = Math.max(0, next.evidencePending - 1);
      break;
  }
  return next;
}

/** Problems, alerts that could not be published, records set aside and evidence that failed: the exit status. */
export function failures(totals: LocalTotals): number {
  const { observations } = totals;
  return (
    totals.problems +
    observations["alert-failed"] +
    observations["record-set-aside"] +
    observations["evidence-failed"]
  );
}

/** Reports lines to a view, keeping the totals that go with them. */
export function reporting(show: (line: LocalLine, totals: LocalTotals) => void) {
  let totals = emptyTotals();
  return {
    report(line: LocalLine) {
      totals = tally(totals, line);
      show(line, totals);
    },
    totals: () => totals,
  };
}
