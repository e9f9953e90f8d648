import type { DeviceEvent } from "@fleet-alerts/core/devicecloud";
import { type ChunkDecision, decideChunk, stateKey } from "@fleet-alerts/core/poller";
import { type RuleInput, type RuleState, ruleSchema } from "@fleet-alerts/core/rules";
import { describe, expect, it } from "vitest";

const NOW = Date.parse("2026-01-05T12:00:00Z");
const ACCOUNT = "east";

const RULES = {
  speed: { id: "speed", events: [13], severity: "warning", cooldownSeconds: 600 },
  harsh: { id: "harsh", events: [13], severity: "info" },
  shock: { id: "shock", events: [16], severity: "critical", staleAfterSeconds: 3600 },
  offline: { id: "offline", events: [3], severity: "info", offlineForMinutes: 5 },
  offlineD1: {
    id: "offline-d1",
    events: [3],
    severity: "info",
    offlineForMinutes: 5,
    devices: { ids: ["D1"] },
  },
  anyOffline: { id: "any-offline", events: [3], severity: "warning" },
  video: {
    id: "video",
    events: [13],
    severity: "critical",
    evidence: { channels: [1], secondsBefore: 5, secondsAfter: 5 },
  },
  d2: { id: "d2", events: [13], severity: "warning", devices: { prefixes: ["D2"] } },
} satisfies Record<string, RuleInput>;
type RuleName = keyof typeof RULES;

/** "serial@seconds:code:device": an event `seconds` after NOW (negative: before). */
function eventOf(spec: string): DeviceEvent {
  const [serial, rest = ""] = spec.split("@");
  const [seconds = "0", code = "13", deviceid = "D1"] = rest.split(":");
  return {
    serialno: BigInt(serial as string),
    deviceid,
    appdevid: Number(code),
    eventtime: new Date(NOW + Number(seconds) * 1000).toISOString(),
  };
}

interface Row {
  name: string;
  rules: RuleName[];
  events: string[];
  /** Rule states before the chunk: "rule/device" to its state. */
  before?: Record<string, RuleState>;
  /** "serial/rule pending+N" (N repeats suppressed before) or "serial/rule stale". */
  records?: string[];
  offline?: string[];
  states?: string[];
  observations?: string[];
  suppressed?: number;
  stale?: number;
}

const ROWS: Row[] = [
  {
    name: "an alert",
    rules: ["speed"],
    events: ["1@-10"],
    records: ["1/speed pending+0"],
    states: [
      "speed/D1 seen=1 last=1 suppressed=0 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]",
    ],
  },
  {
    name: "repeats inside the cooldown: suppressed and counted",
    rules: ["speed"],
    events: ["1@-300", "2@-200", "3@-100"],
    records: ["1/speed pending+0"],
    suppressed: 2,
    observations: ["alert-suppressed 2/speed 1", "alert-suppressed 3/speed 2"],
    states: [
      "speed/D1 seen=3 last=1 suppressed=2 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]",
    ],
  },
  {
    name: "an alert after the cooldown tells the repeats suppressed before it",
    rules: ["speed"],
    events: ["9@-10"],
    before: {
      "speed/D1": { seenSerialno: 8n, lastAlertSerialno: 5n, lastAlertEventMs: NOW - 900_000, suppressed: 3 },
    },
    records: ["9/speed pending+3"],
    states: [
      "speed/D1 seen=9 last=9 suppressed=0 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]",
    ],
  },
  {
    name: "older than the staleness limit: recorded stale, not sent",
    rules: ["shock"],
    events: ["4@-7200:16"],
    records: ["4/shock stale"],
    stale: 1,
    observations: ["alert-stale 4/shock"],
    states: ["shock/D1 seen=4 suppressed=0 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]"],
  },
  {
    name: "serials decided by an earlier run are ignored",
    rules: ["speed"],
    events: ["4@-10", "5@-5", "6@-1"],
    before: {
      "speed/D1": {
        seenSerialno: 5n,
        lastAlertSerialno: 2n,
        lastAlertEventMs: NOW - 3_600_000,
        suppressed: 0,
      },
    },
    records: ["6/speed pending+0"],
    states: [
      "speed/D1 seen=6 last=6 suppressed=0 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]",
    ],
  },
  {
    name: "an Offline event schedules its confirmation; the rule owns only seenSerialno",
    rules: ["offline"],
    events: ["7@-60:3"],
    offline: ["confirm 7/offline due 2026-01-05T12:04:00.000Z"],
    states: ["offline/D1 seen=7 suppressed=0 [seenSerialno]"],
  },
  {
    name: "an Online event cancels, and changes no state",
    rules: ["offline"],
    events: ["8@-5:0"],
    offline: ["cancel 8/offline"],
  },
  {
    name: "Offline steps follow the rule's devices",
    rules: ["offlineD1"],
    events: ["1@-60:3:D2", "2@-5:0:D2", "3@-60:3:D1", "4@-5:0:D1"],
    offline: ["confirm 3/offline-d1 due 2026-01-05T12:04:00.000Z", "cancel 4/offline-d1"],
    states: ["offline-d1/D1 seen=3 suppressed=0 [seenSerialno]"],
  },
  {
    name: "a rule's device filter",
    rules: ["d2"],
    events: ["1@-10:13:D1", "2@-10:13:D2"],
    records: ["2/d2 pending+0"],
    states: ["d2/D2 seen=2 last=2 suppressed=0 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]"],
  },
  {
    name: "several rules per event, each with its own state",
    rules: ["speed", "harsh", "video"],
    events: ["1@-10"],
    records: ["1/speed pending+0", "1/harsh pending+0", "1/video pending+0"],
    states: [
      "speed/D1 seen=1 last=1 suppressed=0 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]",
      "harsh/D1 seen=1 last=1 suppressed=0 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]",
      "video/D1 seen=1 last=1 suppressed=0 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]",
    ],
  },
  {
    name: "one Offline event, two rules: the field lists differ",
    rules: ["offline", "anyOffline"],
    events: ["5@-60:3"],
    records: ["5/any-offline pending+0"],
    offline: ["confirm 5/offline due 2026-01-05T12:04:00.000Z"],
    states: [
      "offline/D1 seen=5 suppressed=0 [seenSerialno]",
      "any-offline/D1 seen=5 last=5 suppressed=0 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]",
    ],
  },
  {
    name: "devices apart: one state each, the last one per device",
    rules: ["speed"],
    events: ["1@-300:13:D1", "2@-300:13:D2", "3@-200:13:D1"],
    records: ["1/speed pending+0", "2/speed pending+0"],
    suppressed: 1,
    observations: ["alert-suppressed 3/speed 1"],
    states: [
      "speed/D1 seen=3 last=1 suppressed=1 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]",
      "speed/D2 seen=2 last=2 suppressed=0 [seenSerialno,lastAlertSerialno,lastAlertEventMs,suppressed]",
    ],
  },
];

const rulesOf = (names: readonly RuleName[]) => names.map((name) => ruleSchema.parse(RULES[name]));

function decide(row: Row) {
  const states = new Map(
    Object.entries(row.before ?? {}).map(([key, state]) => {
      const [ruleId = "", deviceid = ""] = key.split("/");
      return [stateKey(deviceid, ruleId), state];
    }),
  );
  const settings = { account: ACCOUNT, rules: rulesOf(row.rules) };
  return decideChunk({ events: row.events.map(eventOf), settings, states, nowMs: NOW });
}

/** The decision in a form a row can state (records are compared whole, separately). */
function summary(decision: ChunkDecision) {
  return {
    offline: decision.offlineSteps.map((step) =>
      step.kind === "cancel-offline"
        ? `cancel ${step.event.serialno}/${step.rule.id}`
        : `confirm ${step.event.serialno}/${step.rule.id} due ${new Date(step.dueAtMs).toISOString()}`,
    ),
    states: decision.states.map(({ deviceid, ruleId, state, fields }) =>
      [
        `${ruleId}/${deviceid} seen=${state.seenSerialno}`,
        ...(state.lastAlertSerialno === undefined ? [] : [`last=${state.lastAlertSerialno}`]),
        `suppressed=${state.suppressed} [${fields.join(",")}]`,
      ].join(" "),
    ),
    observations: decision.observations.map((observation) =>
      observation.type === "alert-stale"
        ? `alert-stale ${observation.serialno}/${observation.rule}`
        : `alert-suppressed ${observation.serialno}/${observation.rule} ${observation.suppressedSoFar}`,
    ),
    suppressed: decision.suppressed,
    stale: decision.stale,
  };
}

/** The alerts a row expects. */
function expectedAlerts(row: Row) {
  const rules = rulesOf(row.rules);
  return (row.records ?? []).map((spec) => {
    const [, serial, ruleId, status, suppressedBefore = "0"] =
      /^(\d+)\/(\S+) (pending|stale)\+?(\d+)?$/.exec(spec) ?? [];
    const event = row.events.map(eventOf).find((candidate) => candidate.serialno === BigInt(serial ?? -1));
    const rule = rules.find((candidate) => candidate.id === ruleId);
    if (!event || !rule) throw new Error(`bad row record ${spec}`);
    return { event, rule, status, suppressedBefore: Number(suppressedBefore) };
  });
}

describe("decideChunk", () => {
  it.each(ROWS)("$name", (row) => {
    const decision = decide(row);
    expect(summary(decision)).toEqual({
      offline: row.offline ?? [],
      states: row.states ?? [],
      observations: row.observations ?? [],
      suppressed: row.suppressed ?? 0,
      stale: row.stale ?? 0,
    });
    expect(decision.alerts).toEqual(expectedAlerts(row));
  });

  it("is pure: the same input gives the same decision, and the input states are left as they were", () => {
    const row = ROWS[1] as Row;
    const before = { "speed/D1": { seenSerialno: 0n, suppressed: 0 } };
    const first = decide({ ...row, before });
    expect(decide({ ...row, before })).toEqual(first);
    expect(before["speed/D1"]).toEqual({ seenSerialno: 0n, suppressed: 0 });
  });
});
