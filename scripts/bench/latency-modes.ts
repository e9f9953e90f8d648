/**
 * Issue 17's latency modes: how often the poller reads the event log, what each mode's p95
 * event-to-alert latency is, and what it costs one account a month; which mode the production stage
 * runs, and whether that is the cheapest mode that meets the latency target.
 */
import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import { loadStageConfig, POLLER_TIMEOUT_SECONDS, type StageConfig } from "../../infra/stage-config.js";
import type { BacklogFigures } from "./backlog.js";
import { FLEET } from "./cost.js";
import type { LatencyFigures, LatencyOptions, LatencySchedule } from "./latency.js";
import { latencyModeCost, type ModeCost } from "./latency-cost.js";

/** Seconds between polls. 60: one poll per scheduled run; below: the run polls every N s (POLL_EVERY_SECONDS). */
export const POLL_MODES = [60, 15, 10, 5] as const;
export const LATENCY_TARGET_MS = 15_000;
export const COST_TARGET_USD = 5;

// All modes run side by side, each its own pipeline, fleet and AWS emulators in a process of its
// own, so the section takes as long as its slowest mode: the 60 s one, whose events wait up to a
// minute. Two and a half minutes of injection cover every phase of the schedule (a run's polls
// repeat each minute) at least twice, and give each mode about 180 events: the p95 of a 15 s mode
// is then within about 0.25 s (its sampling error), of the 60 s one within about 1 s. Every
// injected event alerts, far more alerts per poll than a fleet's 2% of events: more would inflate
// the processing part of the latency further. With the wait for the last alerts and for one more
// poll (no duplicate), the section takes about five minutes.
const EVENTS_PER_SECOND = 1.2;
const INJECT_SECONDS = 150;
// npm start's own schedule (a run of one poll every 2 s), kept beside the modes with its own
// target, the poll interval plus 1 s: the pipeline's own part of the latency.
const LOCAL_POLL_EVERY_SECONDS = 2;

export interface ModeFigures {
  pollEverySeconds: (typeof POLL_MODES)[number];
  /** The stage settings that select the mode. */
  stage: Pick<StageConfig, "scheduleMinutes" | "pollEverySeconds">;
  latency: LatencyFigures;
  cost: ModeCost;
  costMet: boolean;
}

export interface LatencyModes {
  modes: ModeFigures[];
  /** npm start's schedule, on loopback, against its own target. */
  local: LatencyFigures;
  /** The cheapest mode whose p95 met the target with no alert lost (undefined: none did). */
  cheapestMeeting: ModeFigures["pollEverySeconds"] | undefined;
  /** The production stage's mode (undefined: a schedule that is none of them) and memory. */
  production: { pollEverySeconds: number | undefined; memoryMb: number };
}

export async function measureLatencyModes(
  backlog: Pick<BacklogFigures, "idlePoll" | "requests" | "alerts" | "events" | "pipelineSeconds">,
): Promise<LatencyModes> {
  const production = loadStageConfig("production");
  const common = { eventsPerSecond: EVENTS_PER_SECOND, injectSeconds: INJECT_SECONDS };
  const stages = POLL_MODES.map((seconds) => ({ scheduleMinutes: 1, pollEverySeconds: seconds }));
  const [local, ...latencies] = await Promise.all([
    measureInProcess({
      ...common,
      schedule: { local: true, pollEverySeconds: LOCAL_POLL_EVERY_SECONDS },
      targetMs: LOCAL_POLL_EVERY_SECONDS * 1000 + 1000,
      deviceCloudRoundTripMs: 0,
      seed: 1,
    }),
    ...stages.map((stage, index) =>
      measureInProcess({
        ...common,
        schedule: deployedSchedule(stage),
        targetMs: LATENCY_TARGET_MS,
        // The device cloud is a remote service: each call pays the round trip the cost model assumes.
        deviceCloudRoundTripMs: FLEET.deviceCloudRoundTripMs,
        seed: 2 + index,
      }),
    ),
  ]);
  const modes = POLL_MODES.map((pollEverySeconds, index): ModeFigures => {
    const latency = latencies[index] as LatencyFigures;
    const stage = stages[index] as ModeFigures["stage"];
    const cost = latencyModeCost(
      latency.runs,
      60 * stage.scheduleMinutes,
      backlog,
      production.pollerMemoryMb,
    );
    return { pollEverySeconds, stage, latency, cost, costMet: cost.totalUsd <= COST_TARGET_USD };
  });
  const meeting = modes.filter((mode) => mode.latency.met).sort((a, b) => a.cost.totalUsd - b.cost.totalUsd);
  return {
    modes,
    local: local as LatencyFigures,
    cheapestMeeting: meeting[0]?.pollEverySeconds,
    production: {
      pollEverySeconds: production.scheduleMinutes === 1 ? (production.pollEverySeconds ?? 60) : undefined,
      memoryMb: production.pollerMemoryMb,
    },
  };
}

/** latency.ts's measurement in a process of its own (latency-process.ts). */
function measureInProcess(options: LatencyOptions): Promise<LatencyFigures> {
  const child = fork(
    fileURLToPath(new URL("./latency-process.ts", import.meta.url)),
    [JSON.stringify(options)],
    { execArgv: ["--import", "tsx"], stdio: ["ignore", "inherit", "inherit", "ipc"] },
  );
  return new Promise((resolve, reject) => {
    child.once("message", (figures: LatencyFigures) => resolve(figures));
    child.once("exit", (code) => reject(new Error(`a latency measurement exited (${code}) without figures`)));
  });
}

/** How a stage with these settings runs the poller (infra/polling.ts). */
function deployedSchedule(stage: ModeFigures["stage"]): LatencySchedule {
  return {
    local: false,
    timeoutSeconds: POLLER_TIMEOUT_SECONDS,
    pollEverySeconds: stage.pollEverySeconds,
  };
}
