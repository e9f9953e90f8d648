import type { DeliveryDependencies } from "../alerts/delivery.js";
import { deliverRaisedAlert } from "../alerts/hand-on.js";
import { newAlertRecord } from "../alerts/new-record.js";
import { alertIdOf } from "../alerts/record.js";
import type { RecorderGap } from "../alerts/recorder-gap.js";
import { syntheticSerial } from "../alerts/synthetic-serial.js";
import type { TrackPoint } from "../context/gps-track.js";
import { resolveIncidentContext } from "../context/incident-context.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import { NOT_RECORDING_EVENT_CODE, NOT_RECORDING_RULE } from "../rules/not-recording.js";

export interface GapAlertSettings {
  account: string;
  fleetTimeZone: string;
  /** Where incident links start (PUBLIC_BASE_URL); none: the alert carries no link. */
  linkBaseUrl?: string;
}

/**
 * Another audit run is sending a gap's alert (its claim on the record is live): this run stops
 * before it moves its cursor past the device, so that, should that run have crashed, the next run
 * audits the device again and sends the alert once the claim has run out.
 */
export class GapAlertBusyError extends Error {
  override readonly name = "GapAlertBusyError";
  constructor(readonly alertId: string) {
    super(`alert ${alertId} is being sent by another run of the audit`);
  }
}

/**
 * Raises the "not recording" alert of one gap and sends it as the Offline confirmation sends its
 * alert: recorded once (its serial derived from the account, the device and the gap's start, so a
 * re-run or a run after a crash finds the same record), then delivered while the record says it is
 * owed (routes, quiet hours, digest index, webhooks: the delivery path of every alert). Returns
 * whether this call created the record; throws a GapAlertBusyError when another run's live claim
 * holds it.
 */
export async function raiseGapAlert(
  device: FleetDevice,
  gap: RecorderGap,
  track: readonly TrackPoint[],
  settings: GapAlertSettings,
  deps: DeliveryDependencies,
): Promise<{ alertId: string; serialno: bigint; created: boolean }> {
  const { account } = settings;
  const rule = NOT_RECORDING_RULE;
  const eventtime = new Date(gap.fromMs).toISOString();
  const serialno = syntheticSerial(account, device.deviceid, eventtime);
  let record = await deps.alerts.get(account, serialno, rule.id);
  let created = false;
  if (!record) {
    const event = { serialno, deviceid: device.deviceid, appdevid: NOT_RECORDING_EVENT_CODE, eventtime };
    // Where the gap began: the track the audit read over it, else the last status fix.
    const history =
      track.length > 0
        ? { status: "ok" as const, track: [...track] }
        : { status: "unavailable" as const, reason: "empty" as const };
    const incident = resolveIncidentContext({ event, rule, device, history });
    created = await deps.alerts.record(
      newAlertRecord({
        account,
        event,
        rule,
        status: "pending",
        suppressedBefore: 0,
        device,
        incident,
        fleetTimeZone: settings.fleetTimeZone,
        linkBaseUrl: settings.linkBaseUrl,
        recorderGap: gap,
      }),
      deps.now(),
    );
    record = await deps.alerts.get(account, serialno, rule.id);
  }
  const alertId = alertIdOf(account, serialno, rule.id);
  if ((await deliverRaisedAlert(record, deps)) === "busy") throw new GapAlertBusyError(alertId);
  return { alertId, serialno, created };
}
