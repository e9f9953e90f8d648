import type { DeviceEvent } from "../devicecloud/schemas/events.js";

/**
 * The events after `cursor`, once each, in ascending serialno: the spec does not say in which
 * order the service returns events, nor that a response holds no duplicates.
 */
export function orderAfter<E extends Pick<DeviceEvent, "serialno">>(
  events: readonly E[],
  cursor: bigint,
): E[] {
  const unique = new Map<bigint, E>();
  for (const event of events) {
    if (event.serialno > cursor && !unique.has(event.serialno)) unique.set(event.serialno, event);
  }
  return [...unique.values()].sort((a, b) =>
    a.serialno < b.serialno ? -1 : a.serialno > b.serialno ? 1 : 0,
  );
}

export function maxSerial(serials: Iterable<bigint>): bigint | undefined {
  let max: bigint | undefined;
  for (const serial of serials) if (max === undefined || serial > max) max = serial;
  return max;
}
