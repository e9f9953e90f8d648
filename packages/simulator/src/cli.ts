/**
 * Standalone simulator: `npm run simulator -- --port 8080 --devices 50 --seed 1`.
 * Prints the URL and the demo accounts, then one line per virtual hour of activity.
 */
import { Command, InvalidArgumentError, Option } from "commander";
import { EVENT_COORDINATES } from "./coordinates.js";
import {
  type Account,
  type AdvanceReport,
  EventCode,
  type EventCoordinates,
  type SimEvent,
  start,
} from "./index.js";
import { IGNORABLE_FILTERS, type IgnorableFilter } from "./options.js";
import { HOUR_MS } from "./time.js";

interface CliOptions {
  port: number;
  devices: number;
  seed: number;
  speed: number;
  historyHours: number;
  maxResults?: number;
  order: "asc" | "desc";
  duplicateRate: number;
  ignore?: IgnorableFilter[];
  bitrate?: number[];
  timeZoneOffset: number;
  serialStart?: bigint;
  start?: Date;
  account: Account[];
  eventCoordinates: EventCoordinates;
  localModeNotice?: boolean;
}

const CODE_NAMES = new Map<number, string>(Object.entries(EventCode).map(([name, code]) => [code, name]));

async function main(): Promise<void> {
  const options = new Command()
    .name("simulator")
    .description(
      "Device-cloud simulator: the vendor service's 10 endpoints over HTTP on 127.0.0.1, with a seeded fleet",
    )
    .option("--port <port>", "port on 127.0.0.1 (0 = any free port)", integer(0), 8080)
    .option("--devices <count>", "number of devices", integer(1), 20)
    .option("--seed <seed>", "seed: same seed, same fleet and events", integer(Number.MIN_SAFE_INTEGER), 1)
    .option(
      "--speed <factor>",
      "virtual ms per real ms (60 = a virtual minute per second; 0 = frozen)",
      decimal,
      60,
    )
    .option(
      "--history-hours <hours>",
      "virtual hours of activity generated before the clock start",
      decimal,
      24,
    )
    .option(
      "--max-results <count>",
      "harsh mode: cap on events per event query response (oldest first)",
      integer(1),
    )
    .addOption(
      new Option("--order <order>", "harsh mode: order of event query responses")
        .choices(["asc", "desc"])
        .default("asc"),
    )
    .option("--duplicate-rate <rate>", "harsh mode: fraction of returned events repeated (0..1)", decimal, 0)
    .addOption(
      new Option("--ignore <filter...>", "harsh mode: event query filters accepted but not applied").choices([
        ...IGNORABLE_FILTERS,
      ]),
    )
    .option("--bitrate <bps>", "playback bitrate in bit/s; comma-separated for one per channel", bitrates)
    .option(
      "--time-zone-offset <minutes>",
      "the service's local time zone, minutes east of UTC",
      integer(-840),
      0,
    )
    .option("--serial-start <serial>", "first event serial number", serial)
    .option("--start <iso>", "virtual clock start (ISO 8601); default 2026-01-05T00:00:00Z", date)
    .option(
      "--account <name:password[:admin]>",
      "an account (repeatable); replaces demo/demo and admin/admin",
      account,
      [],
    )
    .addOption(
      new Option("--event-coordinates <mode>", "how events write vehiclex/vehicley (null: never)")
        .choices(EVENT_COORDINATES)
        .default("numbers"),
    )
    .option("--local-mode-notice", "say first that `npm start` runs only the simulator for now")
    .parse()
    .opts<CliOptions>();

  if (options.localModeNotice) {
    console.log(
      "Notice: `npm start` currently runs only the device-cloud simulator. The local pipeline " +
        "(poller, evidence function, AWS emulators) lands in a later issue.\n",
    );
  }
  const simulator = await start({
    port: options.port,
    devices: options.devices,
    seed: options.seed,
    clock: { speed: options.speed, ...(options.start && { start: options.start }) },
    historyHours: options.historyHours,
    eventQuery: {
      maxResults: options.maxResults,
      order: options.order,
      duplicateRate: options.duplicateRate,
      ...(options.ignore && { ignores: options.ignore }),
    },
    timeZoneOffsetMinutes: options.timeZoneOffset,
    eventCoordinates: options.eventCoordinates,
    ...(options.account.length > 0 && { accounts: options.account }),
    ...(options.bitrate && { bitrateBitsPerSecond: options.bitrate }),
    ...(options.serialStart !== undefined && { serialStart: options.serialStart }),
  });
  const { control } = simulator;
  const history = control.events();
  console.log(`Device-cloud simulator listening at ${simulator.url}`);
  console.log(
    `  ${options.devices} devices, seed ${options.seed}, ${history.length} events of history; ` +
      `virtual clock at ${control.now().toISOString()}, speed ${options.speed}x`,
  );
  console.log("Accounts (simulator demo credentials; requests carry the uppercase SHA-256 of the password):");
  for (const { username, password, admin } of simulator.accounts) {
    console.log(`  ${username} / ${password}${admin ? "  (administrator)" : ""}`);
  }
  console.log("Press Ctrl-C to stop.\n");
  control.onAdvance(
    hourlySummary(() => control.devices().filter((device) => device.online).length, options.devices),
  );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    console.log(`\n${signal}: stopping the simulator`);
    await simulator.close();
  };
  process.on("SIGINT", () => void stop("SIGINT"));
  process.on("SIGTERM", () => void stop("SIGTERM"));
}

/** Collects logged events and prints a line each time the virtual clock completes an hour. */
function hourlySummary(onlineCount: () => number, deviceCount: number): (report: AdvanceReport) => void {
  let hourStart: number | undefined;
  let events: SimEvent[] = [];
  return (report) => {
    hourStart ??= Math.floor(report.from.getTime() / HOUR_MS) * HOUR_MS;
    events.push(...report.events);
    const toMs = report.to.getTime();
    if (toMs < hourStart + HOUR_MS) return;
    const counts = new Map<string, number>();
    for (const event of events) {
      const name = CODE_NAMES.get(event.appdevid) ?? `code ${event.appdevid}`;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    const top = [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([name, count]) => `${name} ${count}`)
      .join(", ");
    const hourLabel = new Date(hourStart).toISOString().slice(0, 16);
    console.log(
      `[${hourLabel}Z +1h] ${events.length} events${top ? ` (${top})` : ""}; ${onlineCount()}/${deviceCount} online`,
    );
    hourStart = Math.floor(toMs / HOUR_MS) * HOUR_MS;
    events = [];
  };
}

function integer(min: number) {
  return (text: string): number => {
    const value = Number(text);
    if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
      throw new InvalidArgumentError(`expected an integer >= ${min}`);
    }
    return value;
  };
}

function decimal(text: string): number {
  const value = Number(text);
  if (text.trim() === "" || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError("expected a non-negative number");
  }
  return value;
}

function bitrates(text: string): number[] {
  return text.split(",").map(integer(8));
}

function serial(text: string): bigint {
  if (!/^\d+$/.test(text)) throw new InvalidArgumentError("expected a positive integer");
  return BigInt(text);
}

function date(text: string): Date {
  const value = new Date(text);
  if (Number.isNaN(value.getTime())) throw new InvalidArgumentError("expected an ISO 8601 date-time");
  return value;
}

/** `name:password` or `name:password:admin`; a password may itself contain ':'. */
function account(text: string, previous: Account[]): Account[] {
  const parts = text.split(":");
  const admin = parts.length >= 3 && parts.at(-1) === "admin";
  const username = parts[0] ?? "";
  const password = parts.slice(1, admin ? -1 : undefined).join(":");
  if (username === "" || parts.length < 2) throw new InvalidArgumentError("expected name:password[:admin]");
  return [...previous, { username, password, admin }];
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
