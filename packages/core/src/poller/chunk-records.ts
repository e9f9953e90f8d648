import { newAlertRecord } from "../alerts/new-record.js";
import type { NewAlertRecord } from "../alerts/record.js";
import type { GpsHistory } from "../context/gps-history.js";
import { lookUpGpsHistories } from "../context/gps-lookup.js";
import { type IncidentContext, resolveIncidentContext } from "../context/incident-context.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { ChunkAlert } from "./decide-chunk.js";
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
 * fast it went at its event: one /api/gps lookup per device with pending alerts, inside the
 * account's time budget. A device without a track gets the next best position; its alerts are
 * recorded all the same (stale ones need no context: they are never sent).
 */
export async function recordsOfChunk(
  alerts: readonly ChunkAlert[],
  fleet: ReadonlyMap<string, FleetDevice>,
  settings: AccountSettings,
  deps: Pick<PollerDependencies, "client" | "observer">,
  counts: ContextCounts,
): Promise<NewAlertRecord[]> {
  const pending = alerts.filter((alert) => alert.status === "pending");
  const histories = await lookUpGpsHistories(
    pending.map((alert) => alert.event),
    deps.client,
    settings.gps,
  );
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
