import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startEmulators } from "../../packages/local/src/emulators.js";
import type { SynthesizedHandlers } from "./handlers.js";
import { runHandlerAsLambda } from "./lambda-process.js";
import { forkSimulator } from "./remote-simulator.js";

export interface OutageFigures {
  hours: number;
  /** Events logged while the device cloud could not be reached. */
  events: number;
  alerts: number;
  stale: number;
  /** Runs after the recovery until one caught up, and their time in all. */
  runs: number;
  drainSeconds: number;
  /** The highest peak RSS of those runs. */
  peakRssMiB: number;
}

type PollRun =
  | {
      response: { alertsPublished: number; stale: number; outcome: string; cursor: string }[];
      seconds: number;
      peakRssBytes: number;
    }
  | { error: string };

export const OUTAGE_HOURS = [1, 6, 24] as const;
const FLEET_DEVICES = 1_000;
const MIB = 2 ** 20;
// A run's time as production gives it: a minute's schedule less the deadline margin.
const RUN_SECONDS = 50;

/**
 * The outage drill of `npm run bench`: a 1,000-device fleet whose device cloud refuses every call
 * for 1, 6 and 24 hours, then answers again. The deployed poll bundle runs as Lambda starts it at
 * `memoryMb` (lambda-process.ts), once during the outage (it fails: the cursor stays) and then run
 * after run, each with a production run's time, until one catches up: nothing but ordinary runs.
 * The default rules (stale after 6 hours) judge the backlog by the poller's clock, so each outage
 * has a simulator of its own whose outage ends now.
 */
export async function measureOutageDrill(
  handlers: Pick<SynthesizedHandlers, "bundles" | "startup" | "folder">,
  memoryMb: number,
): Promise<OutageFigures[]> {
  const emulators = await startEmulators({ separateProcess: true });
  try {
    const folder = join(handlers.folder, "outage-drill");
    await mkdir(folder, { recursive: true });
    const figures: OutageFigures[] = [];
    for (const hours of OUTAGE_HOURS) {
      const simulator = await forkSimulator({
        seed: 17,
        devices: FLEET_DEVICES,
        historyHours: 1,
        clock: { start: new Date(Date.now() - hours * 3_600_000) },
      });
      try {
        figures.push(await drill(hours, simulator, { handlers, memoryMb, folder, env: emulators.env() }));
      } finally {
        await simulator.close();
      }
    }
    return figures;
  } finally {
    await emulators.close();
  }
}

/** One outage: the cursor set, `hours` without the device cloud, then runs until one catches up. */
async function drill(
  hours: number,
  simulator: Awaited<ReturnType<typeof forkSimulator>>,
  context: {
    handlers: Pick<SynthesizedHandlers, "bundles" | "startup">;
    memoryMb: number;
    folder: string;
    env: Record<string, string>;
  },
): Promise<OutageFigures> {
  const account = `outage-${hours}h`;
  const eventFile = join(context.folder, `${account}.json`);
  await writeFile(eventFile, JSON.stringify({ account }));
  // A run that fails (the device cloud refused it) ends its process with the error: said, not thrown.
  const runPoller = () =>
    runHandlerAsLambda<PollRun>({
      bundle: context.handlers.bundles.poll,
      eventFile,
      startup: context.handlers.startup.poll,
      memoryMb: context.memoryMb,
      remainingMs: RUN_SECONDS * 1000,
      env: {
        ...process.env,
        ...context.env,
        // The default rules: stale after 6 hours, so a day's outage holds most of its alerts back.
        DEVICE_CLOUD_ACCOUNTS: JSON.stringify([{ id: account, baseUrl: simulator.url, username: "demo" }]),
        DEVICE_CLOUD_PASSWORD: "demo",
        POWERTOOLS_LOG_LEVEL: "ERROR",
      },
    }).catch((error: Error): PollRun => ({ error: error.message.split("\n")[0] ?? "" }));
  const first = await runPoller(); // sets the cursor at the newest event
  if ("error" in first) throw new Error(`the first run failed: ${first.error}`);
  const cursor = BigInt(first.response[0]?.cursor ?? "0");
  await simulator.setReachable(false);
  await simulator.advance(hours * 3_600_000);
  const failed = await runPoller();
  if (!("error" in failed)) throw new Error("a run succeeded while the device cloud was unreachable");
  await simulator.setReachable(true);
  const outage: OutageFigures = {
    hours,
    events: await simulator.eventsAfter(cursor),
    alerts: 0,
    stale: 0,
    runs: 0,
    drainSeconds: 0,
    peakRssMiB: 0,
  };
  for (;;) {
    const run = await runPoller();
    if ("error" in run) throw new Error(`a run after the outage failed: ${run.error}`);
    const [summary] = run.response;
    if (!summary) throw new Error("the poller polled no account");
    outage.runs++;
    outage.drainSeconds += run.seconds;
    outage.peakRssMiB = Math.max(outage.peakRssMiB, run.peakRssBytes / MIB);
    outage.alerts += summary.alertsPublished;
    outage.stale += summary.stale;
    if (summary.outcome === "caught-up") break;
  }
  return { ...outage, drainSeconds: round(outage.drainSeconds), peakRssMiB: round(outage.peakRssMiB) };
}

const round = (value: number) => Math.round(value * 100) / 100;
