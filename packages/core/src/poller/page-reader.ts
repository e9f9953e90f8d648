import { chunked } from "../chunked.js";
import type { EventRows, RejectedEvent } from "../devicecloud/client.js";
import type { FleetDevice } from "../devicecloud/schemas/devices.js";
import type { DeviceEvent } from "../devicecloud/schemas/events.js";
import type { PollerDependencies, PollSummary } from "./dependencies.js";
import { SmallestSerials } from "./smallest-serials.js";

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

/**
 * The events of one page: a chunk. A run holds two pages at most, the one being handled and the
 * next, read ahead (`PlannedChunks`). Measured at 128 MB (`npm run bench`, section 3b, with the
 * poller's 1 MiB semi-spaces), catch-ups of 3,000, 25,000 and 100,000 events peaked at:
 * pages of 2,000 read one at a time, 93.8, 98.3 and 100.0 MiB; of 1,000, 93.8, 97.1 and 97.4; of
 * 1,000 with the next read ahead, 94.5, 95.9 and 102.8; of 500 read ahead, 89.9, 97.2 and 98.3.
 */
export const PAGE_EVENTS = CHUNK_EVENTS;

/**
 * The most serial numbers one scan keeps: the next ten pages. A serial costs about 80 bytes held,
 * twice as many until the first cut (`SmallestSerials`), and each scan reads the serials of the
 * whole backlog after the cursor (serials only: about 25 bytes each), so a scan of ten pages reads
 * a backlog of 100,000 events twenty times over instead of two hundred.
 */
export const SCAN_SERIALS = 10 * PAGE_EVENTS;

/**
 * Invalid events whose serial cannot be read, recorded per answer at most: they cannot be placed in
 * a page, so a service sending them by the thousand must not fill the memory a page is bounded by.
 */
const UNPLACED_REJECTED_MAX = 100;

/** Events handled together, and the serial number the cursor moves to once they are. */
export interface Chunk {
  events: readonly DeviceEvent[];
  through: bigint;
}

type PageReading = Pick<
  PollerDependencies,
  "client" | "rejected" | "observer" | "logger" | "now" | "chunkEvents" | "pageEvents" | "scanSerials"
>;

/**
 * The events after `cursor`, one bounded page at a time, each cut into chunks: never more than a
 * page of events held, however long the backlog, however the service answers.
 *
 * The spec shows no paging, no ordering and no cap for the event query, and the service may ignore
 * a filter. So a scan first reads the serial numbers after the cursor (`columns: ["serialno"]`) and
 * keeps the smallest SCAN_SERIALS of them; then each page of those is read with `afterSerialno` and
 * `beforeSerialno` around it. Both answers are read as a stream and cut to what the page needs:
 * a service that ignores `columns` or `beforeSerialno`, answers in any order, repeats events or
 * caps its answer costs more bytes, never more memory, and loses nothing. Assumed: a capped answer
 * holds the oldest events that match (under any other cap, reading on by `afterSerialno` could
 * never reach the older ones). Invalid events are recorded and reported here and passed over like
 * any other where their serial can be read.
 */
export async function* eventPages(
  account: string,
  cursor: bigint,
  deps: PageReading,
  summary: Pick<PollSummary, "eventsRead" | "rejected">,
  /** The scan after `cursor` made already (a poll's look before it takes the lease): not made again. */
  firstScan?: SerialScan,
): AsyncGenerator<Chunk[], void, undefined> {
  const pageEvents = deps.pageEvents ?? PAGE_EVENTS;
  const record = recorderOf(account, deps, summary);
  // An event the scan saw that its page's answer did not bring: given a second read, then passed over.
  const missedOnce = new Set<bigint>();
  let from = cursor;
  for (let made = firstScan; ; made = undefined) {
    const scan = made ?? (await scanSerials(from, deps));
    await record(scan.unplaced);
    if (scan.serials.length === 0) return;
    let next = 0;
    while (next < scan.serials.length) {
      const serials = scan.serials.slice(next, next + pageEvents);
      const page = await readPage(account, from, serials, missedOnce, deps, summary);
      await record(page.rejected);
      if (page.chunks.length > 0) yield page.chunks;
      from = page.through;
      while (next < scan.serials.length && (scan.serials[next] as bigint) <= from) next++;
    }
  }
}

/** The smallest serials after a cursor (ascending), and the invalid events that have none. */
export interface SerialScan {
  serials: bigint[];
  unplaced: RejectedEvent[];
}

/** Whether a scan found nothing at all to read: the poll has nothing to do. */
export const isEmptyScan = (scan: SerialScan) => scan.serials.length === 0 && scan.unplaced.length === 0;

/** The smallest serials after `from` (ascending), and the invalid events that have none. */
export async function scanSerials(
  from: bigint,
  deps: Pick<PageReading, "client" | "scanSerials">,
): Promise<SerialScan> {
  const scan = await deps.client.readEvents(
    { afterSerialno: from, columns: ["serialno"] },
    () => new ScanRows(from, deps.scanSerials ?? SCAN_SERIALS),
  );
  return { serials: scan.serials.ascending().map(([serial]) => serial), unplaced: scan.unplaced };
}

interface Page {
  chunks: Chunk[];
  rejected: RejectedEvent[];
  /** Where the cursor goes once the chunks are handled: every event up to it has been read. */
  through: bigint;
}

/**
 * Reads the events of `serials` (ascending, after `from`). The page ends at its last serial,
 * unless the answer brought more events in that range than the page holds (it then ends at the
 * last one kept) or lacks one the scan saw (it then ends before it, for the next page to ask
 * again; an event missing from two answers in a row is passed over, with a warning).
 */
async function readPage(
  account: string,
  from: bigint,
  serials: readonly bigint[],
  missedOnce: Set<bigint>,
  deps: PageReading,
  summary: Pick<PollSummary, "eventsRead">,
): Promise<Page> {
  const end = serials.at(-1) as bigint;
  const answer = await deps.client.readEvents(
    { afterSerialno: from, beforeSerialno: end },
    () => new PageRows(from, end, serials.length),
  );
  const rows = answer.rows.ascending();
  let through = answer.rows.overflowed ? (rows.at(-1)?.[0] ?? from) : end;
  for (const [index, serial] of serials.entries()) {
    if (serial > through) break;
    if (answer.rows.has(serial)) continue;
    if (index > 0) {
      through = serials[index - 1] as bigint;
      break;
    }
    if (!missedOnce.has(serial)) {
      missedOnce.add(serial);
      through = from;
      break;
    }
    missedOnce.delete(serial);
    deps.logger.warn("an event the serial scan saw was missing from two answers; passed over", {
      account,
      serialno: serial.toString(),
    });
  }
  const events: DeviceEvent[] = [];
  const rejected: RejectedEvent[] = [];
  for (const [serial, row] of rows) {
    if (serial > through) break;
    if (row.event) events.push(row.event);
    else rejected.push(row.rejected);
  }
  summary.eventsRead += events.length;
  return { chunks: chunksOf(events, through, deps.chunkEvents ?? CHUNK_EVENTS, from), rejected, through };
}

/** The page's events cut into chunks; the last one ends where the page does (a page of invalid events alone is one empty chunk). */
function chunksOf(events: DeviceEvent[], through: bigint, size: number, from: bigint): Chunk[] {
  if (events.length === 0) return through > from ? [{ events: [], through }] : [];
  const chunks = chunked(events, size);
  return chunks.map((chunk, index) => ({
    events: chunk,
    through: index === chunks.length - 1 ? through : (chunk.at(-1) as DeviceEvent).serialno,
  }));
}

type PageRow = { event: DeviceEvent; rejected?: undefined } | { event?: undefined; rejected: RejectedEvent };

/**
 * An answer's rows cut to a page: events and invalid events with a serial in (`from`, `to`], the
 * `capacity` smallest once each. Invalid events without a serial are left to the scan.
 */
class PageRows implements EventRows<DeviceEvent> {
  readonly rows: SmallestSerials<PageRow>;

  constructor(
    private readonly from: bigint,
    private readonly to: bigint,
    capacity: number,
  ) {
    this.rows = new SmallestSerials(capacity);
  }

  onEvent(event: DeviceEvent): void {
    if (event.serialno > this.from && event.serialno <= this.to) this.rows.offer(event.serialno, { event });
  }

  onRejected(rejected: RejectedEvent): void {
    const { serialno } = rejected;
    if (serialno !== undefined && serialno > this.from && serialno <= this.to)
      this.rows.offer(serialno, { rejected });
  }
}

/**
 * A scan's answer cut to its smallest `capacity` serials after `from` (an invalid event's too, when
 * it can be read), and the first UNPLACED_REJECTED_MAX invalid events whose serial cannot be.
 */
class ScanRows implements EventRows<Pick<DeviceEvent, "serialno">> {
  readonly serials: SmallestSerials<null>;
  readonly unplaced: RejectedEvent[] = [];

  constructor(
    private readonly from: bigint,
    capacity: number,
  ) {
    this.serials = new SmallestSerials(capacity);
  }

  onEvent({ serialno }: Pick<DeviceEvent, "serialno">): void {
    if (serialno > this.from) this.serials.offer(serialno, null);
  }

  onRejected(rejected: RejectedEvent): void {
    if (rejected.serialno === undefined) {
      if (this.unplaced.length < UNPLACED_REJECTED_MAX) this.unplaced.push(rejected);
    } else if (rejected.serialno > this.from) this.serials.offer(rejected.serialno, null);
  }
}

/** Records and reports invalid events (idempotent: keyed by serial, or by digest without one). */
function recorderOf(
  account: string,
  deps: PageReading,
  summary: Pick<PollSummary, "rejected">,
): (rejected: readonly RejectedEvent[]) => Promise<void> {
  return async (rejected) => {
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
  };
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
