import type { CallOptions } from "../devicecloud/client.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { EventQueryFilter } from "../devicecloud/schemas/events.js";
import { maxSerial } from "./event-order.js";

const RECENT_WINDOW_MS = 24 * 3_600_000;

/**
 * The serial number of the newest event in the log, where a first run starts (no flood of history).
 * It reads only serial numbers: first of the last day (so a long log need not be read whole), then
 * pages forward from the highest one until nothing newer comes, since a response may be capped.
 */
export async function newestSerial(
  client: DeviceCloud,
  nowMs: number,
  options?: CallOptions,
): Promise<bigint> {
  const serialsOf = async (filter: Omit<EventQueryFilter, "columns">) => {
    const { events } = await client.queryEvents({ ...filter, columns: ["serialno"] }, options);
    return maxSerial(events.map((event) => event.serialno));
  };
  let newest =
    (await serialsOf({ afterTime: new Date(nowMs - RECENT_WINDOW_MS) })) ?? (await serialsOf({})) ?? 0n;
  for (;;) {
    const next = await serialsOf({ afterSerialno: newest });
    if (next === undefined || next <= newest) return newest;
    newest = next;
  }
}
