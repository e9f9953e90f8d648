import { newAlertRecord } from "../alerts/new-record.js";
import type { NewAlertRecord } from "../alerts/record.js";
import type { GpsHistory } from "../context/gps-history.js";
import { lookUpGpsHistories } from "../context/gps-lookup.js";
import { type IncidentContext, resolveIncidentContext } from "../context/incident-context.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { RuleState } from "../rules/evaluator.js";
import { type ChunkDecision, decideChunk } from "./decide-chunk.js";
import type { AccountSettings, PollerDependencies, PollSummary } from "./dependencies.js";
import type { Chunk } from "./page-reader.js";
import { stateKey } from "./rule-state.js";

type ContextCounts = Pick<
  PollSummary,
  | "gpsLookups"
  | "gpsLookupsFailed"
  | "positionsFromEvent"
  | "positionsFromTrack"
  | "positionsLastKnown"
  | "positionsUnknown"
>;

/** A chunk decided, with the GPS lookups for its pending alerts under way. */
export interface ChunkPlan {
  decision: ChunkDecision;
  histories: Promise<Map<string, GpsHistory>>;
  /** Ends the lookups: the run stops before this chunk. */
  cancel(): void;
}

/** What deciding a chunk reads: the rule states as the chunk starts, by `stateKey`. */
export type StatesAtStart = Pick<ReadonlyMap<string, RuleState>, "get">;

/**
 * Decides a chunk and starts the /api/gps lookups its pending alerts need: one per device with
 * pending alerts, inside the account's time budget. The poller plans the next chunk while this one
 * is written, so the lookups overlap the writes.
 */
export function planChunk(
  chunk: Chunk,
  states: StatesAtStart,
  settings: AccountSettings,
  deps: Pick<PollerDependencies, "client" | "now">,
): ChunkPlan {
  const decision = decideChunk({ events: chunk.events, settings, states, nowMs: deps.now() });
  const pending = decision.alerts.filter((alert) => alert.status === "pending");
  const cancel = new AbortController();
  const histories = lookUpGpsHistories(
    pending.map((alert) => alert.event),
    deps.client,
    settings.gps,
    cancel.signal,
  );
  return { decision, histories, cancel: () => cancel.abort() };
}

/** The states a chunk leaves behind, over those it started from: what the next chunk decides on. */
export function statesAfter(before: StatesAtStart, decision: ChunkDecision): StatesAtStart {
  const changed = new Map(
    decision.states.map((change) => [stateKey(change.deviceid, change.ruleId), change.state]),
  );
  return { get: (key) => changed.get(key) ?? before.get(key) };
}

/**
 * The records of a chunk's alerts, each pending one rendered with where the vehicle was and how
 * fast it went at its event. A device without a track gets the next best position; its alerts are
 * recorded all the same (stale ones need no context: they are never sent).
 */
export async function recordsOfChunk(
  plan: ChunkPlan,
  fleet: ReadonlyMap<string, FleetDevice>,
  settings: AccountSettings,
  deps: Pick<PollerDependencies, "observer">,
  counts: ContextCounts,
): Promise<NewAlertRecord[]> {
  const { alerts } = plan.decision;
  const pending = alerts.filter((alert) => alert.status === "pending");
  const histories = await plan.histories;
  for (const [deviceid, history] of histories) {
    if (history.status === "unavailable" && history.reason === "disabled") continue;
    counts.gpsLookups++;
    if (history.status === "ok") continue;
    counts.gpsLookupsFailed++;
    deps.observer.observe({
      type: "gps-history-unavailable",
      account: settings.account,
      deviceid,
      reason: history.reason,
      alerts: pending.filter((alert) => alert.event.deviceid === deviceid).length,
    });
  }
  return alerts.map(({ event, rule, status, suppressedBefore }) => {
    const basis = {
      account: settings.account,
      event,
      rule,
      suppressedBefore,
      device: fleet.get(event.deviceid),
      fleetTimeZone: settings.fleetTimeZone,
    };
    if (status === "stale") return newAlertRecord({ ...basis, status });
    const history = histories.get(event.deviceid) as GpsHistory;
    const incident = resolveIncidentContext({ event, rule, device: basis.device, history });
    countPosition(incident, counts);
    return newAlertRecord({ ...basis, status, incident });
  });
}

function countPosition({ position }: IncidentContext, counts: ContextCounts): void {
  if (position === undefined) counts.positionsUnknown++;
  else if (position.source === "event") counts.positionsFromEvent++;
  else if (position.source === "track") counts.positionsFromTrack++;
  else counts.positionsLastKnown++;
}
