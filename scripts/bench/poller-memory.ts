import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { startEmulators } from "../../packages/local/src/emulators.js";
import { writeBacklogRules } from "./backlog.js";
import type { SynthesizedHandlers } from "./handlers.js";
import { runHandlerAsLambda } from "./lambda-process.js";
import { forkSimulator } from "./remote-simulator.js";

export interface PollerMemoryFigures {
  /** The Lambda memory size whose heap limits the process ran with. */
  memoryMb: number;
  /** A run that finds nothing new: the floor every scheduled run pays. */
  idle: RunFigures;
  /** Runs that catch up backlogs of growing outages, smallest first: what a run holds must not grow. */
  catchUps: CatchUpFigures[];
}

interface RunFigures {
  seconds: number;
  peakRssMiB: number;
}

export interface CatchUpFigures extends RunFigures {
  events: number;
  alerts: number;
  eventsPerSecond: number;
}

const MIB = 2 ** 20;
// About 20 minutes, 3 hours and 12 hours of a 1,000-device fleet's events (cost.ts's FLEET): from an
// outage the lag alarm reports to a night without the device cloud. Each is read a bounded page at a
// time (poller/page-reader.ts), so what a run holds must not grow with the backlog.
export const BACKLOG_SIZES = [3_000, 25_000, 100_000] as const;

/**
 * The poller's memory, measured as Lambda would hold it at `memoryMb`: the deployed poll bundle run
 * once per fresh process started as Lambda's Node.js runtime starts it (lambda-process.ts: its heap
 * limits, the function's NODE_OPTIONS), its peak resident memory read by the process itself. The
 * device cloud (the simulator) and the AWS emulators run in processes of their own, so only the
 * poller's own memory is counted.
 */
export async function measurePollerMemory(
  handlers: Pick<SynthesizedHandlers, "bundles" | "startup" | "folder">,
  memoryMb: number,
): Promise<PollerMemoryFigures> {
  const emulators = await startEmulators({ separateProcess: true });
  const simulator = await forkSimulator({ seed: 11, devices: 60, historyHours: 1 });
  try {
    const folder = join(handlers.folder, "poller-memory");
    await mkdir(folder, { recursive: true });
    const rulesFile = join(folder, "rules.json");
    await writeBacklogRules(rulesFile);
    const eventFile = join(folder, "event.json");
    await writeFile(eventFile, JSON.stringify({ account: "north" }));
    const runPoller = async () => {
      const result = await runHandlerAsLambda<{
        response: { eventsRead: number; alertsPublished: number; cursor: string }[];
        seconds: number;
        peakRssBytes: number;
      }>({
        bundle: handlers.bundles.poll,
        eventFile,
        startup: handlers.startup.poll,
        memoryMb,
        env: {
          ...process.env,
          ...emulators.env(),
          DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
            { id: "north", baseUrl: simulator.url, username: "demo", rulesFile },
          ]),
          DEVICE_CLOUD_PASSWORD: "demo",
          POWERTOOLS_LOG_LEVEL: "ERROR",
        },
      });
      const [summary] = result.response;
      if (!summary) throw new Error("the poller polled no account");
      return {
        summary,
        figures: { seconds: round(result.seconds), peakRssMiB: round(result.peakRssBytes / MIB) },
      };
    };
    const { summary: first } = await runPoller(); // sets the cursor at the newest event
    let cursor = BigInt(first.cursor);
    const catchUps: CatchUpFigures[] = [];
    for (const size of BACKLOG_SIZES) {
      while ((await simulator.eventsAfter(cursor)) < size) await simulator.advance(3_600_000);
      const catchUp = await runPoller();
      if ((await simulator.eventsAfter(BigInt(catchUp.summary.cursor))) > 0)
        throw new Error(`a catch-up of ${size} events did not finish in one run`);
      cursor = BigInt(catchUp.summary.cursor);
      catchUps.push({
        ...catchUp.figures,
        events: catchUp.summary.eventsRead,
        alerts: catchUp.summary.alertsPublished,
        eventsPerSecond: Math.round(catchUp.summary.eventsRead / catchUp.figures.seconds),
      });
    }
    const idle = await runPoller();
    return { memoryMb, idle: idle.figures, catchUps };
  } finally {
    await simulator.close();
    await emulators.close();
  }
}

const round = (value: number) => Math.round(value * 100) / 100;
