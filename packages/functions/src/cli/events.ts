import { setTimeout as sleep } from "node:timers/promises";
import {
  type DeviceCloudClient,
  DeviceCloudError,
  type DeviceEvent,
  eventCodeName,
} from "@fleet-alerts/core/devicecloud";
import { newestSerial } from "@fleet-alerts/core/poller";
import { shown } from "@fleet-alerts/core/text";
import { Command } from "commander";
import { type ConnectionOptions, connect, withConnectionOptions } from "./connection.js";
import { readEventsAfter } from "./event-pages.js";
import { count } from "./format.js";
import { parseEventCodes, parseSerial, secondsAtLeast } from "./parse.js";

interface TailOptions extends ConnectionOptions {
  fromSerial?: bigint;
  interval: number;
  duration?: number;
  codes?: number[];
}

/** `fleet-alerts events ...`: the service's event log. */
export function eventsCommand(): Command {
  const events = new Command("events").description("read the device cloud's event log");
  const tail = events
    .command("tail")
    .description("print events as they are logged, oldest first, until Ctrl-C or --duration")
    .option(
      "--from-serial <serialno>",
      "start after this serial number (default: the newest event)",
      parseSerial,
    )
    .option("--interval <seconds>", "time between queries", secondsAtLeast(0.1), 5)
    .option("--duration <seconds>", "stop after this long (default: run until Ctrl-C)", secondsAtLeast(0))
    .option(
      "--codes <list>",
      "only these event codes or names, e.g. 13,16 or OverSpeed,GSensor",
      parseEventCodes,
    );
  withConnectionOptions(tail).action(followEvents);
  return events;
}

async function followEvents(options: TailOptions): Promise<void> {
  const client = await connect(options);
  const stopping = new AbortController();
  const stop = () => stopping.abort();
  // `on`: under npm a Ctrl-C arrives twice, and an unheard second one would kill the process.
  process.on("SIGINT", stop);
  const deadline = options.duration === undefined ? undefined : setTimeout(stop, options.duration * 1000);
  const { signal } = stopping;
  let printed = 0;
  try {
    let cursor = options.fromSerial ?? (await newestSerial(client, Date.now(), { signal }));
    console.error(`Following events after serial ${cursor} (Ctrl-C to stop)`);
    while (!signal.aborted) {
      const read = await readNew(client, cursor, signal);
      if (read) {
        // Filtered here rather than by the query's `appdevid` (one code only), and the cursor still
        // passes the events not shown.
        const shown = read.events.filter((event) => options.codes?.includes(event.appdevid) ?? true);
        for (const event of shown) console.log(eventLine(event));
        printed += shown.length;
        cursor = read.through ?? cursor;
      }
      await sleep(options.interval * 1000, undefined, { signal }).catch(() => undefined);
    }
  } catch (error) {
    // Stopping aborts the query in flight: that is the normal end, not a failure.
    if (!signal.aborted) throw error;
  } finally {
    clearTimeout(deadline);
    process.off("SIGINT", stop);
  }
  console.error(`Stopped: ${count(printed, "event")} printed`);
}

/**
 * The events after the cursor; undefined after a failure worth waiting out (the service down for a
 * while), which a live tail reports and rides through. Other failures (bad credentials) end it.
 */
async function readNew(client: DeviceCloudClient, cursor: bigint, signal: AbortSignal) {
  try {
    const read = await readEventsAfter(client, {}, cursor, { signal });
    for (const event of read.rejected)
      console.error(`warning: event ${event.serialno ?? "(unreadable serial)"} is invalid and not shown`);
    return read;
  } catch (error) {
    if (!(error instanceof DeviceCloudError && error.retryable) || signal.aborted) throw error;
    console.error(`warning: ${error.message}; trying again`);
    return undefined;
  }
}

function eventLine(event: DeviceEvent): string {
  return shown`${event.serialno}  ${event.eventtime}  ${event.deviceid}  ${event.appdevid} ${eventCodeName(event.appdevid)}`;
}
