import type { AlertPublisher, AlertRecords } from "../alerts/ports.js";
import type { Publications } from "../alerts/publication-store.js";
import type { GpsLookupSettings } from "../context/gps-lookup.js";
import type { AccountLease, Cursors } from "../cursor/ports.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { ParkedEvidence } from "../evidence/ports.js";
import type { StructuredLogger } from "../logging.js";
import type { StaleSummaries } from "../notices/stale-summaries.js";
import type { ObservationOf, Observer } from "../observer.js";
import type { OfflineChecks } from "../offline/ports.js";
import type { JobQueue } from "../queue/ports.js";
import type { AlertRouter } from "../routing/route-alert.js";
import type { Rule } from "../rules/schema.js";
import type { SetAside } from "../setaside/set-aside.js";
import type { RejectedEvents, RuleStates } from "./ports.js";

/** The step boundaries of a chunk, in order: where a crash can happen and a replay must recover. */
export const POLL_STEPS = [
  "alerts-recorded",
  "alerts-published",
  "jobs-queued",
  "side-effects-sent",
  "states-saved",
  "stale-noted",
  "evidence-woken",
  "cursor-advanced",
] as const;
export type PollStep = (typeof POLL_STEPS)[number];

export interface PollerDependencies {
  client: DeviceCloud;
  cursors: Cursors;
  lock: AccountLease;
  alerts: AlertRecords;
  /** Each chunk's publication item: which of its alerts went out, which had their jobs sent. */
  publications: Publications;
  states: RuleStates;
  offlineChecks: OfflineChecks;
  rejected: RejectedEvents;
  publisher: AlertPublisher;
  evidenceQueue: JobQueue;
  confirmQueue: JobQueue;
  /** Where escalation jobs go; absent where escalation is not set up (nothing is scheduled). */
  escalationQueue?: JobQueue;
  /** Decides each alert's route (recipient groups, quiet hours, SMS caps) before it first goes out. */
  router: AlertRouter;
  /** Where webhook, Slack and Teams jobs go; absent where no target is set up. */
  webhookQueue?: JobQueue;
  /** Keeps what AWS refuses for good (and tells ops), so that nothing else waits for it. */
  setAside: SetAside;
  /**
   * Counts the stale alerts of each chunk and tells their groups of them once the account has
   * caught up; absent where nobody is to be told (the decision tests).
   */
  staleSummaries?: StaleSummaries;
  /**
   * Evidence jobs parked until their device comes online: woken when the chunk holds the device's
   * Online event. Absent where nothing parks (the decision tests).
   */
  parkedEvidence?: ParkedEvidence;
  logger: StructuredLogger;
  /** Told each decision and outcome (alerts, suppressions, Offline checks...). */
  observer: Observer;
  /** The business clock: event ages, Offline due times, record timestamps. */
  now: () => number;
  /** The wall clock the Lambda deadline is measured on (Date.now); apart from `now`, which may be simulated. */
  wallClock?: () => number;
  /** Events per chunk; CHUNK_EVENTS unless set (tests cross chunk boundaries with fewer events). */
  chunkEvents?: number;
  /** Events per page, the most a poll holds; PAGE_EVENTS unless set (tests cross pages with fewer). */
  pageEvents?: number;
  /** Serial numbers one scan keeps; SCAN_SERIALS unless set (tests cross scans with fewer). */
  scanSerials?: number;
  /** How long the lease outlives the poll's invocation; LEASE_MARGIN_MS unless set (tests outlive a lease in a second). */
  leaseMarginMs?: number;
  /**
   * Called at each step boundary and awaited; tests throw from it to simulate a crash there, or
   * hold it to stall the poll there (as a starved CPU or a slow call would).
   */
  checkpoint?: (step: PollStep) => void | Promise<void>;
}

export interface AccountSettings {
  account: string;
  rules: readonly Rule[];
  fleetTimeZone: string;
  /** How the GPS history around alerts is looked up: the unit of its speeds, the time budget. */
  gps: GpsLookupSettings;
  /** Where a first run starts instead of the newest event. */
  startSerialno?: bigint;
  /** Where incident links start (PUBLIC_BASE_URL); none: alerts carry no link. */
  linkBaseUrl?: string;
}

/** One account's figures for one run: what the poll-summary observation reports. */
export type PollSummary = Omit<ObservationOf<"poll-summary">, "type">;

/** The figures of a summary that are counts: zero at the start of a run, added across ticks. */
export const POLL_COUNTS = [
  "eventsRead",
  "alertsPublished",
  "alertsFailed",
  "suppressed",
  "stale",
  "rejected",
  "offlineChecks",
  "offlineCancelled",
  "evidenceJobs",
  "gpsLookups",
  "gpsLookupsFailed",
  "positionsFromEvent",
  "positionsFromTrack",
  "positionsLastKnown",
  "positionsUnknown",
] as const;
