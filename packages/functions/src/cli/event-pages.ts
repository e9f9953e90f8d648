import type {
  CallOptions,
  DeviceCloudClient,
  DeviceEvent,
  EventQueryFilter,
  RejectedEvent,
} from "@fleet-alerts/core/devicecloud";
import { maxSerial, orderAfter } from "@fleet-alerts/core/poller";

export interface EventPages {
  /** Once each, in ascending serialno. */
  events: DeviceEvent[];
  /** Events that do not match the schema, once each where their serial is readable. */
  rejected: RejectedEvent[];
  /** The highest serial read (valid or rejected); `after` when nothing came. */
  through: bigint | undefined;
}

/**
 * Every event matching `filter` with a serial above `after` (every one, without `after`). The spec
 * shows no paging and the service may cap a response, so this reads on with `afterSerialno` = the
 * highest serial received, until a response brings nothing newer. Rejected events count for that
 * highest serial: a page of them alone must not be asked for again and again.
 */
export async function readEventsAfter(
  client: DeviceCloudClient,
  filter: Omit<EventQueryFilter, "afterSerialno" | "columns">,
  after: bigint | undefined,
  options?: CallOptions,
): Promise<EventPages> {
  const events: DeviceEvent[] = [];
  const rejected = new Map<bigint | RejectedEvent, RejectedEvent>();
  let through = after;
  for (;;) {
    const page = await client.queryEvents(
      { ...filter, ...(through !== undefined && { afterSerialno: through }) },
      options,
    );
    events.push(...page.events);
    // Keyed by serial to drop repeats; one whose serial cannot be read is its own key.
    for (const event of page.rejected) rejected.set(event.serialno ?? event, event);
    const highest = maxSerial([
      ...page.events.map((event) => event.serialno),
      ...page.rejected.flatMap((event) => (event.serialno === undefined ? [] : [event.serialno])),
    ]);
    if (highest === undefined || (through !== undefined && highest <= through)) break;
    through = highest;
  }
  const floor = after ?? -1n; // serials are non-negative: -1 keeps them all
  return {
    events: orderAfter(events, floor),
    rejected: [...rejected.values()].filter(
      (event) => event.serialno === undefined || event.serialno > floor,
    ),
    through,
  };
}
