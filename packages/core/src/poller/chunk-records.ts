import { newAlertRecord } from "../alerts/new-record.js";
import type { NewAlertRecord } from "../alerts/record.js";
import type { GpsHistory } from "../context/gps-history.js";
import { type IncidentContext, resolveIncidentContext } from "../context/incident-context.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { ChunkPlan, LookupWindow } from "./chunk-planner.js";
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
  const histories = await plan.lookups.histories;
  if (!plan.lookups.reported) reportLookups(plan.lookups, histories, settings, deps, counts);
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

/** Each lookup once, by the first chunk of its window to use it. */
function reportLookups(
  lookups: LookupWindow,
  histories: ReadonlyMap<string, GpsHistory>,
  settings: AccountSettings,
  deps: Pick<PollerDependencies, "observer">,
  counts: ContextCounts,
): void {
  lookups.reported = true;
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
      alerts: lookups.alerts.get(deviceid) ?? 0,
    });
  }
}

function countPosition({ position }: IncidentContext, counts: ContextCounts): void {
  if (position === undefined) counts.positionsUnknown++;
  else if (position.source === "event") counts.positionsFromEvent++;
  else if (position.source === "track") counts.positionsFromTrack++;
  else counts.positionsLastKnown++;
}
