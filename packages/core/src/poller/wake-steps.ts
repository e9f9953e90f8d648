import { EVENT_CODES } from "../devicecloud/codes.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import { wakeDevices } from "../evidence/wake.js";
import type { Run } from "./chunk-stages.js";

/** The devices with an Online event (appdevid 0) in a chunk, each once, in event order (pure). */
export function devicesCameOnline(events: readonly DeviceEvent[]): string[] {
  return [
    ...new Set(
      events.filter((event) => event.appdevid === EVENT_CODES.Online).map((event) => event.deviceid),
    ),
  ];
}

/**
 * The parked evidence of devices that came online in the chunk goes back to the evidence queue
 * before the cursor passes their Online events: a crash before this replays the chunk, which wakes
 * them then. So a parked job's footage is fetched within one poll of its vehicle reconnecting. An
 * Online event of a backlog may be old and its device offline again: the woken job then parks again.
 */
export async function wakeParkedEvidence(run: Run, deviceids: readonly string[]): Promise<void> {
  const { deps, settings } = run;
  if (deps.parkedEvidence && deviceids.length > 0)
    await wakeDevices(settings.account, deviceids, {
      parked: deps.parkedEvidence,
      evidenceQueue: deps.evidenceQueue,
      observer: deps.observer,
    });
  await deps.checkpoint?.("evidence-woken");
}
