import { chunked } from "../chunked.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { PollerDependencies, PollSummary } from "./dependencies.js";
import { maxSerial, orderAfter } from "./event-order.js";

/**
 * Events are handled, and the cursor checkpointed, in chunks of this many: bounded work per step.
 * Each chunk pays a fixed set of writes (its publication item, its rule states, the cursor, the
 * lease) and one GPS call per device and stretch of events, so larger chunks catch a backlog up
 * faster (`npm run bench`: 500 against 100 cut a catch-up's DynamoDB requests from 794 to 291).
 * A chunk of 500 with its alerts took 0.1 s of the bench's CPU: about 2 s at a 128 MB Lambda's
 * fourteenth of a vCPU and the extra garbage collection of its heap limits (estimated, not measured
 * there; docs/PERFORMANCE.md), well inside the deadline margin.
 */
export const CHUNK_EVENTS = 500;

/** Events handled together, and the serial number the cursor moves to once they are. */
export interface Chunk {
  events: readonly DeviceEvent[];
  through: bigint;
}

/**
 * Reads the page after `cursor`: its events once each in ascending serialno, cut into chunks.
 * Rejected events are recorded and reported here, and passed over like any other when their serial
 * can be read (a page of them alone is one empty chunk). Undefined when nothing follows the cursor.
 */
export async function readPage(
  account: string,
  cursor: bigint,
  deps: Pick<PollerDependencies, "client" | "rejected" | "observer" | "now" | "chunkEvents">,
  summary: Pick<PollSummary, "eventsRead" | "rejected">,
): Promise<Chunk[] | undefined> {
  const page = await deps.client.queryEvents({ afterSerialno: cursor });
  const events = orderAfter(page.events, cursor);
  const rejected = page.rejected.filter((event) => event.serialno === undefined || event.serialno > cursor);
  summary.eventsRead += events.length;
  for (const event of rejected) {
    await deps.rejected.record(account, event, deps.now());
    deps.observer.observe({
      type: "event-rejected",
      account,
      ...(event.serialno !== undefined && { serialno: event.serialno.toString() }),
      issues: event.issues,
    });
  }
  summary.rejected += rejected.length;
  const rejectedThrough = maxSerial(
    rejected.flatMap((event) => (event.serialno === undefined ? [] : [event.serialno])),
  );
  if (events.length === 0 && rejectedThrough === undefined) return undefined;
  const chunks = events.length === 0 ? [[]] : chunked(events, deps.chunkEvents ?? CHUNK_EVENTS);
  return chunks.map((chunk, index) => {
    const extra = index === chunks.length - 1 && rejectedThrough !== undefined ? [rejectedThrough] : [];
    return {
      events: chunk,
      through: maxSerial([...chunk.map((event) => event.serialno), ...extra]) as bigint,
    };
  });
}

/** Vehicle, driver and last position per device, read once per run; alerts go out without them if it fails. */
export async function readFleet(
  account: string,
  deps: Pick<PollerDependencies, "client" | "logger">,
): Promise<Map<string, FleetDevice>> {
  try {
    const devices = await deps.client.allDevices();
    return new Map(devices.map((device) => [device.deviceid, device]));
  } catch (error) {
    deps.logger.warn("device list unavailable; alerts go out without vehicle and driver", {
      account,
      error: (error as Error).message,
    });
    return new Map();
  }
}
