import { routableOf } from "../alerts/delivery.js";
import { newAlertRecord } from "../alerts/new-record.js";
import type { ChunkAlertRecord } from "../alerts/ports.js";
import { type AlertRecord, alertIdOf, type NewAlertRecord } from "../alerts/record.js";
import type { GpsHistory } from "../context/gps-history.js";
import type { GpsHistories } from "../context/gps-lookup.js";
import {
  type IncidentContext,
  resolveIncidentContext,
  staleIncidentContext,
} from "../context/incident-context.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { AlertRouter } from "../routing/route-alert.js";
import type { ChunkPlan } from "./chunk-planner.js";
import type { AccountSettings, PollerDependencies, PollSummary } from "./dependencies.js";

type ContextCounts = Pick<
  PollSummary,
  | "gpsLookups"
  | "gpsLookupsFailed"
  | "positionsFromEvent"
  | "positionsFromTrack"
  | "positionsLastKnown"
  | "positionsUnknown"
>;

/**
 * The records of a chunk's alerts, each pending one rendered with where the vehicle was and how
 * fast it went at its event. A device without a track gets the next best position; its alerts are
 * recorded all the same. A stale one is rendered from what its event says, with no lookup: it is
 * never sent, and its evidence's track places it.
 */
export async function recordsOfChunk(
  plan: ChunkPlan,
  fleet: ReadonlyMap<string, FleetDevice>,
  settings: AccountSettings,
  deps: Pick<PollerDependencies, "observer">,
  counts: ContextCounts,
): Promise<NewAlertRecord[]> {
  const { alerts } = plan.decision;
  const histories = await plan.histories;
  reportLookups(plan, histories, settings, deps, counts);
  return alerts.map(({ event, rule, status, suppressedBefore }) => {
    const basis = {
      account: settings.account,
      event,
      rule,
      suppressedBefore,
      device: fleet.get(event.deviceid),
      fleetTimeZone: settings.fleetTimeZone,
      linkBaseUrl: settings.linkBaseUrl,
    };
    if (status === "stale")
      return newAlertRecord({ ...basis, status, incident: staleIncidentContext(event, rule) });
    // Every pending alert's event was looked up; should one not have been, it goes out without a track.
    const history: GpsHistory = histories.at(event.deviceid, Date.parse(event.eventtime)) ?? {
      status: "unavailable",
      reason: "failed",
    };
    const incident = resolveIncidentContext({ event, rule, device: basis.device, history });
    countPosition(incident, counts);
    return newAlertRecord({ ...basis, status, incident });
  });
}

/**
 * The decided records the window lacks, as the poller writes them for its chunk: an alert to send
 * is written `published`, with its route decided now, a stale one `stale`, with no route (it goes
 * to no one; the stale summary tells its groups of it). Both as of the chunk's
 * decision time, which a replay of the chunk reads back from its publication item: it finds the
 * same quiet-hour windows, SMS hour and routing item keys, and so routes exactly as the first run.
 */
export function chunkRecords(
  decided: readonly NewAlertRecord[],
  existing: readonly AlertRecord[],
  chunk: { from: bigint; decidedAtMs: number },
  router: AlertRouter,
): Promise<ChunkAlertRecord[]> {
  const kept = new Set(existing.map((record) => record.alertId));
  const fresh = decided.filter(
    (record) => !kept.has(alertIdOf(record.account, record.serialno, record.ruleId)),
  );
  return Promise.all(
    fresh.map(async (record): Promise<ChunkAlertRecord> => {
      const written = { ...record, chunkFrom: chunk.from, decidedAtMs: chunk.decidedAtMs };
      if (record.status === "stale") return { ...written, status: "stale" };
      const route = await router.route(routableOf(record), chunk.decidedAtMs);
      return { ...written, status: "published", route };
    }),
  );
}

function reportLookups(
  { decision }: ChunkPlan,
  histories: GpsHistories,
  settings: AccountSettings,
  deps: Pick<PollerDependencies, "observer">,
  counts: ContextCounts,
): void {
  for (const { deviceid, fromMs, toMs, history } of histories.lookups) {
    if (history.status === "unavailable" && history.reason === "disabled") continue;
    counts.gpsLookups++;
    if (history.status === "ok") continue;
    counts.gpsLookupsFailed++;
    deps.observer.observe({
      type: "gps-history-unavailable",
      account: settings.account,
      deviceid,
      reason: history.reason,
      alerts: decision.alerts.filter(({ status, event }) => {
        const eventMs = Date.parse(event.eventtime);
        return status === "pending" && event.deviceid === deviceid && fromMs <= eventMs && eventMs <= toMs;
      }).length,
    });
  }
}

function countPosition({ position }: IncidentContext, counts: ContextCounts): void {
  if (position === undefined) counts.positionsUnknown++;
  else if (position.source === "event") counts.positionsFromEvent++;
  else if (position.source === "track") counts.positionsFromTrack++;
  else counts.positionsLastKnown++;
}
