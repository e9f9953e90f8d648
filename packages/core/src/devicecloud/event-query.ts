import type * as z from "zod";
import type { ValidationIssue } from "./errors.js";
import { toValidationIssues } from "./errors.js";
import {
  type DeviceEvent,
  type EventColumn,
  type EventQueryFilter,
  type Serialno,
  serialnoSchema,
} from "./schemas/events.js";
import { postJsonArray, type TransportOptions } from "./transport.js";

/** An event the service returned that does not match the schema, kept whole for the record. */
export interface RejectedEvent {
  /** The event as received (a numeric serialno appears as its exact digits in a string). */
  raw: unknown;
  /** Its serial number, when that much could be read. */
  serialno?: Serialno;
  issues: ValidationIssue[];
}

export interface EventQueryResult<E> {
  /** Valid events, in the order the service returned them (which the spec does not define). */
  events: E[];
  rejected: RejectedEvent[];
}

/** Takes the rows of an event query's answer one by one, in the order the service sends them. */
export interface EventRows<E> {
  onEvent(event: E): void;
  onRejected(event: RejectedEvent): void;
}

export type FilterWithoutColumns = Omit<EventQueryFilter, "columns"> & { columns?: undefined };
// `readonly` so that a caller's `as const` list of columns is accepted and drives the result type.
export type FilterWithColumns<C extends EventColumn> = Omit<EventQueryFilter, "columns"> & {
  columns: readonly C[];
};

/**
 * Streams an event query's answer (`postJsonArray`): each row validated on its own against
 * `eventSchema` and handed to the rows `open` made for the attempt. Returns the last attempt's rows.
 */
export async function readEventAnswer<R extends EventRows<Partial<DeviceEvent>>>(
  transport: TransportOptions,
  body: string,
  eventSchema: z.ZodType<Partial<DeviceEvent>>,
  open: () => R,
  signal: AbortSignal | undefined,
): Promise<R> {
  let rows: R | undefined;
  const readRow = (raw: unknown) => {
    const parsed = eventSchema.safeParse(raw);
    if (parsed.success) rows?.onEvent(parsed.data);
    else
      rows?.onRejected({
        raw,
        serialno: readableSerialno(raw),
        issues: toValidationIssues(parsed.error.issues),
      });
  };
  await postJsonArray(
    transport,
    "eventQuery",
    body,
    () => {
      rows = open();
      return readRow;
    },
    signal,
  );
  return rows as R;
}

/** Rows kept whole, for `queryEvents`. */
export class EventCollector implements EventRows<Partial<DeviceEvent>> {
  readonly events: Partial<DeviceEvent>[] = [];
  readonly rejected: RejectedEvent[] = [];

  onEvent(event: Partial<DeviceEvent>): void {
    this.events.push(event);
  }

  onRejected(event: RejectedEvent): void {
    this.rejected.push(event);
  }
}

function readableSerialno(raw: unknown): Serialno | undefined {
  if (typeof raw !== "object" || raw === null || !("serialno" in raw)) return undefined;
  const parsed = serialnoSchema.safeParse(raw.serialno);
  return parsed.success ? parsed.data : undefined;
}
