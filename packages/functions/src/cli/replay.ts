import { type DeviceEvent, eventCodeName, type RejectedEvent } from "@fleet-alerts/core/devicecloud";
import { stateKey } from "@fleet-alerts/core/poller";
import {
  DEFAULT_RULES,
  type Decision,
  evaluateEvent,
  loadRulesFile,
  type Rule,
  type RuleState,
} from "@fleet-alerts/core/rules";
import { Command } from "commander";
import { type ConnectionOptions, connect, withConnectionOptions } from "./connection.js";
import { readEventsAfter } from "./event-pages.js";
import { count, formatTable, toJson } from "./format.js";
import { CliError, type Instant, parseInstant } from "./parse.js";

interface ReplayOptions extends ConnectionOptions {
  from: Instant;
  to: Instant;
  rules?: string;
  now?: Instant;
  json?: boolean;
}

/** `fleet-alerts rules replay`: what the rules would have decided over a period of the event log. */
export function replayCommand(): Command {
  return withConnectionOptions(
    new Command("replay")
      .description(
        "dry-run the rules over the service's event log for a period and print every decision; " +
          "nothing is recorded, published or queued",
      )
      .requiredOption(
        "--from <time>",
        "start of the period, by event time (ISO date or time; UTC unless it has an offset)",
        parseInstant,
      )
      .requiredOption(
        "--to <time>",
        "end of the period, inclusive (a date alone: to the end of that day)",
        parseInstant,
      )
      .option("--rules <file>", "rules file (JSON); without it, the default rules")
      .option(
        "--now <time>",
        "evaluate as of this instant, since staleness depends on it (default: the real now)",
        parseInstant,
      )
      .option("--json", "print a JSON document instead of lines"),
  )
    .addHelpText(
      "after",
      "\nCooldowns start empty at --from: an alert raised before the period does not hold back\n" +
        "repeats inside it.",
    )
    .action(replay);
}

/** The order of the totals' columns. */
const KINDS: readonly Decision["kind"][] = [
  "alert",
  "suppressed",
  "stale",
  "confirm-offline",
  "cancel-offline",
];

/** One decision of the replay, with the event it was made for. */
interface ReplayDecision {
  event: DeviceEvent;
  decision: Decision;
}

/**
 * The rules over the events, in ascending serialno, with rule states kept in memory keyed by rule
 * and device exactly as the poller keeps them between chunks, all at one `nowMs`.
 */
function replayDecisions(
  events: readonly DeviceEvent[],
  rules: readonly Rule[],
  nowMs: number,
): ReplayDecision[] {
  const states = new Map<string, RuleState>();
  const replayed: ReplayDecision[] = [];
  for (const event of events) {
    const evaluation = evaluateEvent(
      event,
      rules,
      (ruleId) => states.get(stateKey(event.deviceid, ruleId)),
      nowMs,
    );
    for (const [ruleId, state] of evaluation.changed) states.set(stateKey(event.deviceid, ruleId), state);
    for (const decision of evaluation.decisions) replayed.push({ event, decision });
  }
  return replayed;
}

async function replay(options: ReplayOptions): Promise<void> {
  const period = periodOf(options.from, options.to);
  const rules = options.rules === undefined ? DEFAULT_RULES : await loadRulesFile(options.rules);
  const nowMs = options.now?.ms ?? Date.now();
  const client = await connect(options);
  // Whole seconds, sent as UTC with Z: the service compares event times at whole seconds, both ends inclusive.
  const read = await readEventsAfter(
    client,
    { afterTime: new Date(period.fromMs), beforeTime: new Date(period.toMs) },
    undefined,
  );
  const decisions = replayDecisions(read.events, rules, nowMs);
  const report = {
    period: { from: new Date(period.fromMs).toISOString(), to: new Date(period.toMs).toISOString() },
    now: new Date(nowMs).toISOString(),
    rules: rules.map((rule) => rule.id),
    eventsRead: read.events.length,
    rejected: read.rejected.map((event) => ({ serialno: event.serialno ?? null, issues: event.issues })),
    decisions: decisions.map(decisionAsJson),
    totals: totalsOf(decisions, rules),
  };
  if (options.json) {
    console.log(toJson(report));
    return;
  }
  warnRejected(read.rejected);
  console.log(
    `Replay of ${count(report.eventsRead, "event")} from ${report.period.from} to ${report.period.to}, ` +
      `as of ${report.now}: ${count(decisions.length, "decision")}`,
  );
  if (decisions.length > 0) {
    const header = ["SERIALNO", "EVENT TIME", "DEVICE", "EVENT", "RULE", "DECISION", "DETAIL"];
    for (const line of formatTable(header, decisions.map(decisionAsRow))) console.log(line);
  }
  console.log("");
  const totals = Object.entries(report.totals).map(([rule, byKind]) => [
    rule,
    ...KINDS.map((kind) => String(byKind[kind])),
  ]);
  for (const line of formatTable(["RULE", ...KINDS.map((kind) => kind.toUpperCase())], totals))
    console.log(line);
}

/** The period in whole seconds, both ends inclusive as the service's time filters are. */
function periodOf(from: Instant, to: Instant): { fromMs: number; toMs: number } {
  const second = (ms: number) => Math.floor(ms / 1000) * 1000;
  const fromMs = second(from.ms);
  const toMs = to.dateOnly ? to.ms + 86_400_000 - 1000 : second(to.ms);
  if (fromMs > toMs) throw new CliError("--from must not be after --to");
  return { fromMs, toMs };
}

function totalsOf(decisions: readonly ReplayDecision[], rules: readonly Rule[]) {
  const totals: Record<string, Record<Decision["kind"], number>> = {};
  for (const rule of rules)
    totals[rule.id] = { alert: 0, suppressed: 0, stale: 0, "confirm-offline": 0, "cancel-offline": 0 };
  for (const { decision } of decisions) {
    const byKind = totals[decision.rule.id];
    if (byKind) byKind[decision.kind]++;
  }
  return totals;
}

function detailOf(decision: Decision): { text: string; fields: Record<string, number | string> } {
  switch (decision.kind) {
    case "alert":
      return {
        text:
          decision.suppressedBefore > 0
            ? `${count(decision.suppressedBefore, "repeat")} held back before`
            : "",
        fields: { suppressedBefore: decision.suppressedBefore },
      };
    case "suppressed":
      return {
        text: `repeat ${decision.suppressedSoFar} inside the ${decision.rule.cooldownSeconds} s cooldown`,
        fields: { suppressedSoFar: decision.suppressedSoFar },
      };
    case "stale":
      return {
        text: `${decision.ageSeconds} s old, limit ${decision.rule.staleAfterSeconds} s`,
        fields: { ageSeconds: decision.ageSeconds },
      };
    case "confirm-offline": {
      const dueAt = new Date(decision.dueAtMs).toISOString();
      return { text: `check at ${dueAt}`, fields: { dueAt } };
    }
    case "cancel-offline":
      return { text: "voids any pending offline check", fields: {} };
  }
}

function decisionAsRow({ event, decision }: ReplayDecision): string[] {
  return [
    event.serialno.toString(),
    event.eventtime,
    event.deviceid,
    `${eventCodeName(event.appdevid)}(${event.appdevid})`,
    decision.rule.id,
    decision.kind,
    detailOf(decision).text,
  ];
}

function decisionAsJson({ event, decision }: ReplayDecision) {
  return {
    serialno: event.serialno,
    eventtime: event.eventtime,
    deviceid: event.deviceid,
    appdevid: event.appdevid,
    event: eventCodeName(event.appdevid),
    rule: decision.rule.id,
    kind: decision.kind,
    ...detailOf(decision).fields,
  };
}

/** Events that do not match the schema cannot be evaluated: say so, on stderr so that stdout stays the report. */
function warnRejected(rejected: readonly RejectedEvent[]): void {
  if (rejected.length === 0) return;
  const serials = rejected.map((event) => event.serialno?.toString() ?? "(unreadable)").join(", ");
  console.error(`warning: ${count(rejected.length, "event")} not evaluated (invalid): ${serials}`);
}
