import type { CallOptions, EventRows } from "../devicecloud/client.js";
import type { DeviceCloud } from "../devicecloud/ports.js";
import type { DeviceEvent, EventQueryFilter } from "../devicecloud/schemas/events.js";

const RECENT_WINDOW_MS = 24 * 3_600_000;

/**
 * The serial number of the newest event in the log, where a first run starts (no flood of history).
 * It reads only serial numbers, as a stream keeping the highest: first of the last day (so a long
 * log need not be read whole), then pages forward from the highest one until nothing newer comes,
 * since a response may be capped.
 */
export async function newestSerial(
  client: DeviceCloud,
  nowMs: number,
  options?: CallOptions,
): Promise<bigint> {
  const serialsOf = async (filter: Omit<EventQueryFilter, "columns">) => {
    const highest = await client.readEvents(
      { ...filter, columns: ["serialno"] },
      () => new HighestSerial(),
      options,
    );
    return highest.serial;
  };
  let newest =
    (await serialsOf({ afterTime: new Date(nowMs - RECENT_WINDOW_MS) })) ?? (await serialsOf({})) ?? 0n;
  for (;;) {
    const next = await serialsOf({ afterSerialno: newest });
    if (next === undefined || next <= newest) return newest;
    newest = next;
  }
}

class HighestSerial implements EventRows<Pick<DeviceEvent, "serialno">> {
  serial: bigint | undefined;

  onEvent({ serialno }: Pick<DeviceEvent, "serialno">): void {
    if (this.serial === undefined || serialno > this.serial) this.serial = serialno;
  }

  onRejected(): void {
    // A serial that cannot be read cannot be where a first run starts.
  }
}
