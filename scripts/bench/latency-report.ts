/**
 * Section 3 of `npm run bench`: measures the latency modes (latency-modes.ts), prints their table,
 * what each costs item by item, and judges production's target and choice (bench.ts's `judge`).
 */
import { availableParallelism } from "node:os";
import type { DuplicateDelivery, LatencyFigures, Percentiles } from "./latency.js";
import {
  type LatencyModes,
  type ModeFigures,
  measureLatencyModes,
  NEXT_GOAL,
  TARGET,
} from "./latency-modes.js";
import type { PollKind } from "./poll-profile.js";

type Judge = (section: string, figure: string, target: string, met: boolean) => string;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const usd = (value: number) => value.toFixed(2);
const within = (figures: Percentiles, usdPerAccount: number, goal: typeof TARGET | typeof NEXT_GOAL) =>
  figures.p95Ms <= goal.p95Ms && usdPerAccount <= goal.usdPerAccount;
const goalText = (goal: typeof TARGET | typeof NEXT_GOAL) =>
  `p95 <= ${goal.p95Ms / 1000} s at <= ${goal.usdPerAccount} USD a month per account`;

export async function reportLatencyModes(judge: Judge): Promise<LatencyModes> {
  console.log(
    "\n3. Latency modes: event to alert, and the poller's price per account a month (each mode its own local pipeline in real time, the poller at Lambda's CPU share; scripts/bench/latency-modes.ts)",
  );
  const latency = await measureLatencyModes();
  const { modes, profile, production, local } = latency;
  const pollLine = (name: string, kind: PollKind) =>
    `${name} ${kind.milliseconds} ms (CPU ${kind.cpuMs} ms, ${kind.eventsRead} events, ${kind.alerts} alerts, DynamoDB ${kind.dynamo.writeUnits} WRU ${kind.dynamo.readUnits} RRU ${JSON.stringify(kind.dynamo.requests)}, ${kind.awsRequests} AWS requests)`;
  console.log(
    `   a poll at ${profile.memoryMb} MB's CPU share, the device cloud ${profile.deviceCloudRoundTripMs} ms away (scripts/bench/poll-profile.ts, mean of ${profile.empty.polls}): ${[
      pollLine("empty", profile.empty),
      pollLine("with events", profile.events),
      pollLine("an hour's events", profile.manyEvents),
      pollLine("with an alert", profile.alerting),
    ].join("; ")}`,
  );
  printModesTable(modes);
  console.log(
    "   (wait): until the poll that read the event, p95. dup: alerts received more than once. polls/min, empty, events: the mode's poll invocations a minute and their median wall time, those that read nothing and those that read events (every injected event alerts, so these are dearer than a fleet's). USD/month: a 1,000-device fleet's polls priced from the measured poll (scripts/bench/latency-cost.ts)",
  );
  for (const { pollEverySeconds, cost } of modes) {
    const items = cost.lines.map(
      (line) => `${line.item} ${usd(line.usd)} (${line.quantity.toLocaleString("en")})`,
    );
    console.log(
      `   every ${pollEverySeconds} s, USD/month: ${items.join("; ")}; a poll billed ${cost.billedMs.empty} ms empty, ${cost.billedMs.withEvents} ms with events (${Math.round(cost.pollsWithEventsShare * 100)}% of polls)`,
    );
  }

  console.log(`   ${profileAgreement(latency)}`);

  const productionMode = modes.find((mode) => mode.pollEverySeconds === production.pollEverySeconds);
  const productionName = `production every ${production.pollEverySeconds} s`;
  const productionFigures = productionMode
    ? `p95 ${seconds(productionMode.latency.p95Ms)}, ${productionMode.latency.lost} lost, ${usd(productionMode.cost.totalUsd)} USD`
    : "not a measured mode";
  console.log(
    `   ${productionName} at ${production.memoryMb} MB: ${productionFigures}   ${judge("Latency modes", `${productionName}: ${productionFigures}`, goalText(TARGET), productionMode?.met ?? false)}`,
  );
  const fastest = modes[0];
  if (fastest)
    console.log(
      `   every ${fastest.pollEverySeconds} s: p95 ${seconds(fastest.latency.p95Ms)}, ${fastest.latency.lost} lost, ${usd(fastest.cost.totalUsd)} USD; the next goal, ${goalText(NEXT_GOAL)}: ${within(fastest.latency, fastest.cost.totalUsd, NEXT_GOAL) && fastest.latency.lost === 0 ? "reached" : "not yet"} (printed, not judged)`,
    );
  const cheapest = latency.cheapestMeeting === undefined ? "none" : `every ${latency.cheapestMeeting} s`;
  console.log(
    `   the cheapest mode meeting ${goalText(TARGET)}: ${cheapest}   ${judge("Latency modes", `${productionName}, cheapest meeting: ${cheapest}`, `production runs the cheapest mode meeting ${goalText(TARGET)}`, latency.cheapestMeeting !== undefined && production.pollEverySeconds === latency.cheapestMeeting)}`,
  );
  console.log(
    `   npm start's schedule (a poll every ${local.schedule.local ? local.schedule.pollEverySeconds : "?"} s, loopback, this machine's CPU): ${local.events} events, p50 ${local.p50Ms} ms, p95 ${local.p95Ms} ms, max ${local.maxMs} ms, ${local.lost} lost   ${judge("Latency", `npm start p95 ${local.p95Ms} ms`, `p95 <= ${local.targetMs} ms (poll interval + 1 s)`, local.met)}`,
  );
  const quiet = [local, ...modes.map((mode) => mode.latency)];
  printPassProcesses(quiet);

  const { underLoad } = latency;
  console.log(
    `   under load: the same ${quiet.length} pipelines again, a busy loop on each of this machine's ${underLoad.busyLoops} cores beside them (scripts/bench/busy-cores.ts), ${(underLoad.seconds / 60).toFixed(1)} min`,
  );
  printModesTable(underLoad.modes);
  const loadedLocal = underLoad.local;
  console.log(
    `   npm start's schedule under load: p95 ${loadedLocal.p95Ms} ms, ${loadedLocal.lost} lost, ${loadedLocal.duplicates} dup (not judged)`,
  );
  const loaded = [loadedLocal, ...underLoad.modes.map((mode) => mode.latency)];
  printPassProcesses(loaded);
  const passFigures = (name: string, pass: LatencyFigures[]) =>
    `${name} ${sum(pass, (figures) => figures.duplicates)} dup, ${sum(pass, (figures) => figures.lost)} lost`;
  const duplicates = sum([...quiet, ...loaded], (figures) => figures.duplicates);
  console.log(
    `   duplicate deliveries, every pipeline of both passes: ${duplicates}   ${judge("Latency modes", `${passFigures("quiet", quiet)}; ${passFigures("under load", loaded)}`, "0 duplicate deliveries over both passes", duplicates === 0)}`,
  );
  return latency;
}

function printModesTable(modes: readonly ModeFigures[]): void {
  console.log(
    `   ${"mode".padEnd(12)} ${"events".padStart(6)} ${"p50".padStart(7)} ${"p95".padStart(7)} ${"(wait)".padStart(7)} ${"lost".padStart(4)} ${"dup".padStart(3)}   ${"polls/min".padStart(9)} ${"empty".padStart(8)} ${"events".padStart(8)}   ${"USD/month".padStart(9)}`,
  );
  for (const { pollEverySeconds, latency: figures, cost } of modes) {
    const { invocations } = figures;
    console.log(
      `   ${`every ${pollEverySeconds} s`.padEnd(12)} ${String(figures.events).padStart(6)} ${seconds(figures.p50Ms).padStart(7)} ${seconds(figures.p95Ms).padStart(7)} ${seconds(figures.stages.untilRead.p95Ms).padStart(7)} ${String(figures.lost).padStart(4)} ${String(figures.duplicates).padStart(3)}   ${String(invocations.perMinute).padStart(9)} ${`${invocations.emptyDurationMs} ms`.padStart(8)} ${`${invocations.withEventsDurationMs} ms`.padStart(8)}   ${usd(cost.totalUsd).padStart(9)}`,
    );
  }
}

/** The CPU a pass's processes used, then each pipeline's duplicates (one by one), unexpected alerts and problems. */
function printPassProcesses(pass: readonly LatencyFigures[]): void {
  const cpus = sum(pass, (figures) => figures.processCpus);
  console.log(
    `   the ${pass.length} processes side by side used ${cpus.toFixed(2)} CPUs of this machine's ${availableParallelism()} (${pass.map((figures) => figures.processCpus).join(", ")})`,
  );
  for (const figures of pass) {
    const name = figures.schedule.local
      ? "npm start's schedule"
      : `every ${figures.schedule.pollEverySeconds} s`;
    if (figures.duplicates + figures.unexpected + figures.problems.length > 0)
      console.log(
        `   ${name}: ${figures.duplicates} duplicates, ${figures.unexpected} unexpected, problems: ${figures.problems.join("; ")}`,
      );
    for (const duplicate of figures.duplicateDeliveries) console.log(`      ${duplicateLine(duplicate)}`);
  }
}

/** The same subscriber-queue message again is the queue's redelivery; another message, a second publish. */
function duplicateLine(duplicate: DuplicateDelivery): string {
  const cause =
    duplicate.messageId === duplicate.firstMessageId ? "the queue's redelivery" : "a second publish";
  const at = (ms: number | undefined) => (ms === undefined ? "?" : new Date(ms).toISOString().slice(11, 23));
  return `event ${duplicate.serialno} again: message ${duplicate.messageId} queued ${at(duplicate.sentMs)}, received ${at(duplicate.receivedMs)}; the first, ${duplicate.firstMessageId}, queued ${at(duplicate.firstSentMs)}: ${cause}`;
}

const sum = (pass: readonly LatencyFigures[], figure: (figures: LatencyFigures) => number) =>
  pass.reduce((total, figures) => total + figure(figures), 0);

/** The priced profile against the modes' own polls, and the attempts before it if it took more. */
function profileAgreement({ profile, profileAttempts, modes }: LatencyModes): string {
  const withEvents = modes
    .map((mode) => mode.latency.invocations.withEventsDurationMs)
    .filter((ms) => ms > 0)
    .sort((a, b) => a - b);
  const agrees = profileAttempts.at(-1)?.agrees ?? false;
  const attempts = profileAttempts.map(
    (attempt) => `${attempt.alertingMs} ms${attempt.agrees ? "" : " (disagreed)"}`,
  );
  return `the profile's poll with an alert ${profile.alerting.milliseconds} ms against the modes' own polls with events ${withEvents[0] ?? 0}-${withEvents.at(-1) ?? 0} ms (median each): ${agrees ? "consistent" : "INCONSISTENT: its prices are too high"}; measured ${profileAttempts.length} time(s): ${attempts.join(", ")}`;
}
