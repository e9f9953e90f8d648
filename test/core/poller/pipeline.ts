import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Observation } from "@fleet-alerts/core";
import {
  type PollerDependencies,
  type PollOptions,
  type PollStep,
  type PollSummary,
  pollAccount,
} from "@fleet-alerts/core/poller";
import type { RuleInput } from "@fleet-alerts/core/rules";
import { type Simulator, type SimulatorOptions, start } from "@fleet-alerts/simulator";
import { createConfirmHandler } from "../../../packages/functions/src/confirm.js";
import { createPollHandler } from "../../../packages/functions/src/poll.js";
import { buildRuntime, type RuntimeOverrides } from "../../../packages/functions/src/runtime.js";
import { type Emulators, type InboxMessage, startEmulators } from "../../support/emulators.js";
import { writeGroupsFile } from "../../support/groups.js";

export interface PipelineOptions {
  simulator?: SimulatorOptions;
  rules: RuleInput[];
  /** Accounts (ids) on the same simulator, each with its own cursor; default one, "north". */
  accounts?: { id: string; startSerialno?: bigint; timeoutMs?: number }[];
  env?: Record<string, string>;
  /** The groups file; default one group hearing of everything by one email (test/support/groups.ts). */
  groups?: object;
  /** Pages and chunks smaller than production's, so that a test backlog spans several. */
  pollSizes?: RuntimeOverrides["pollSizes"];
}

/**
 * The pipeline as it runs in Lambda, on one machine: the simulator as the device cloud, dynalite
 * and fauxqs as AWS, and the real handlers configured through their environment.
 */
export async function startPipeline(options: PipelineOptions) {
  const emulators: Emulators = await startEmulators();
  const simulator: Simulator = await start({ seed: 5, devices: 6, historyHours: 2, ...options.simulator });
  const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-rules-"));
  const rulesFile = join(folder, "rules.json");
  await writeFile(rulesFile, JSON.stringify({ rules: options.rules }));
  const groupsFile = await writeGroupsFile(folder, options.groups);
  const accounts = (options.accounts ?? [{ id: "north" }]).map(({ id, startSerialno, timeoutMs }) => ({
    id,
    ...(timeoutMs !== undefined && { timeoutMs }),
    baseUrl: simulator.url,
    username: "demo",
    rulesFile,
    ...(startSerialno !== undefined && { startSerialno: startSerialno.toString() }),
  }));
  const env = {
    ...emulators.env(),
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify(accounts),
    DEVICE_CLOUD_PASSWORD: "demo",
    GROUPS_FILE: groupsFile,
    FLEET_TIME_ZONE: "Europe/Berlin",
    ...options.env,
  };
  // What the handlers report, in order: as the local mode's live view and --json receive it.
  const observations: Observation[] = [];
  const observer = { observe: (observation: Observation) => observations.push(observation) };
  const pollHandler = createPollHandler(env, {
    observer,
    ...(options.pollSizes && { pollSizes: options.pollSizes }),
  });
  return {
    observations,
    emulators,
    simulator,
    env,
    /** Invokes the poll handler as Lambda would, with this much time left. */
    poll: (remainingMs = 60_000) => pollHandler({}, { getRemainingTimeInMillis: () => remainingMs }),
    confirmHandler: createConfirmHandler(env, { observer }),
    /** The handlers' runtime, for tests that drive core with a test seam (crash points, clock); it reports to `observations` too. */
    runtime: () =>
      buildRuntime(env, { observer, ...(options.pollSizes && { pollSizes: options.pollSizes }) }),
    close: async () => {
      await simulator.close();
      await emulators.close();
    },
  };
}

/** Each published alert as (serialno, rule) with its message, from the inbox subscribed to the topic. */
export function alertsOf(messages: readonly InboxMessage[], account?: string) {
  return messages
    .filter((message) => message.attributes.kind?.value === "alert")
    .filter((message) => account === undefined || message.attributes.account?.value === account)
    .map((message) => {
      const alert = JSON.parse(message.bodies?.default ?? message.raw) as {
        serialno: string;
        ruleId: string;
      };
      return { key: `${alert.serialno}/${alert.ruleId}`, message };
    });
}

/** Reads the inbox until it stays empty for a moment: everything published so far. */
export async function drainInbox(emulators: Emulators): Promise<InboxMessage[]> {
  const all: InboxMessage[] = [];
  for (;;) {
    const batch = await emulators.readInbox({ atLeast: 0, waitMs: 300 });
    if (batch.length === 0) return all;
    all.push(...batch);
  }
}

export type Pipeline = Awaited<ReturnType<typeof startPipeline>>;

/**
 * Runs one account's poll through core with the simulator's clock as "now" (so staleness and
 * Offline delays follow virtual time), and the test seams a handler does not offer.
 */
export async function pollWithClock(
  pipeline: Pipeline,
  account = "north",
  seams: Partial<
    Pick<
      PollerDependencies,
      "checkpoint" | "chunkEvents" | "confirmQueue" | "now" | "pageEvents" | "staleSummaries" | "wallClock"
    >
  > &
    Partial<Pick<PollOptions, "deadlineMs" | "endsAtMs">> = {},
): Promise<PollSummary> {
  const { deps, settings } = await accountRuntime(pipeline, account);
  const { deadlineMs = Number.POSITIVE_INFINITY, endsAtMs, ...overrides } = seams;
  return pollAccount(
    settings,
    { ...deps, now: virtualNow(pipeline), ...overrides },
    { deadlineMs, ...(endsAtMs !== undefined && { endsAtMs }) },
  );
}

export async function accountRuntime(pipeline: Pipeline, account = "north") {
  const { pollers } = await pipeline.runtime();
  const poller = pollers.find((candidate) => candidate.settings.account === account);
  if (!poller) throw new Error(`no account ${account}`);
  return poller;
}

export const virtualNow = (pipeline: Pipeline) => () => pipeline.simulator.control.now().getTime();

export type { PollStep };
