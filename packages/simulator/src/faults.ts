/**
 * Seeded fault injection per endpoint. For each request, the rules are checked in the order they
 * were added: every firing `latency` rule adds its delay, and the first other rule that fires
 * decides the fault (later ones are not checked). A rule with `times` fires at most that many
 * times, then expires; a rule that does not fire (probability) does not use up a time.
 */
import type { EndpointName } from "./endpoints.js";
import { createRng, type Rng } from "./rng.js";

export type FaultKind =
  | "latency"
  | "status500"
  | "status503"
  | "status429"
  | "htmlPage200"
  | "malformedJson"
  | "truncatedJson"
  | "connectionReset"
  | "playbackCut";

export interface FaultRule {
  endpoint: EndpointName | "*";
  kind: FaultKind;
  /** Chance that the rule fires for a matching request, from a seeded generator. Default 1. */
  probability?: number;
  /** Fire for at most this many requests, then expire. Default: no limit. */
  times?: number;
  /** For `latency`: the delay before the response (combines with other faults). */
  latencyMs?: number;
  /**
   * For `playbackCut`: the connection is closed after this many body bytes, the full
   * Content-Length having been announced. Default 65536. Applies to JSON bodies too.
   */
  cutAfterBytes?: number;
  /** For `status429`/`status503`: sends `Retry-After` with this many seconds. */
  retryAfterSeconds?: number;
}

export interface FaultDecision {
  latencyMs: number;
  /** The rule that decides the response, if any (never a latency rule). */
  fault: FaultRule | undefined;
}

const FAULT_KINDS: readonly FaultKind[] = [
  "latency",
  "status500",
  "status503",
  "status429",
  "htmlPage200",
  "malformedJson",
  "truncatedJson",
  "connectionReset",
  "playbackCut",
];
export const DEFAULT_CUT_AFTER_BYTES = 65_536;

interface ActiveRule {
  rule: FaultRule;
  remaining: number;
}

export class FaultInjector {
  private active: ActiveRule[] = [];
  private readonly rng: Rng;

  constructor(seed: number, rules: readonly FaultRule[]) {
    this.rng = createRng(seed, "faults");
    for (const rule of rules) this.add(rule);
  }

  add(rule: FaultRule): void {
    validateRule(rule);
    this.active.push({ rule: { ...rule }, remaining: rule.times ?? Number.POSITIVE_INFINITY });
  }

  clear(): void {
    this.active = [];
  }

  /** The rules still in force. */
  list(): FaultRule[] {
    return this.active.map(({ rule }) => ({ ...rule }));
  }

  decide(endpoint: EndpointName): FaultDecision {
    let latencyMs = 0;
    let fault: FaultRule | undefined;
    for (const active of this.active) {
      const { rule } = active;
      if (rule.endpoint !== "*" && rule.endpoint !== endpoint) continue;
      if (fault && rule.kind !== "latency") continue;
      const probability = rule.probability ?? 1;
      if (probability < 1 && !this.rng.chance(probability)) continue;
      active.remaining--;
      if (rule.kind === "latency") latencyMs += rule.latencyMs ?? 0;
      else fault = rule;
    }
    this.active = this.active.filter((active) => active.remaining > 0);
    return { latencyMs, fault };
  }
}

function validateRule(rule: FaultRule): void {
  const check = (ok: boolean, problem: string) => {
    if (!ok) throw new Error(`invalid fault rule ${JSON.stringify(rule)}: ${problem}`);
  };
  const isCount = (value: number | undefined, min: number) =>
    value === undefined || (Number.isInteger(value) && value >= min);
  check(FAULT_KINDS.includes(rule.kind), "unknown kind");
  check(
    rule.probability === undefined || (rule.probability >= 0 && rule.probability <= 1),
    "probability must be 0..1",
  );
  check(isCount(rule.times, 1), "times must be a positive integer");
  check(
    rule.kind !== "latency" || (rule.latencyMs !== undefined && rule.latencyMs >= 0),
    "latency needs latencyMs >= 0",
  );
  check(isCount(rule.cutAfterBytes, 0), "cutAfterBytes must be a non-negative integer");
  check(isCount(rule.retryAfterSeconds, 0), "retryAfterSeconds must be a non-negative integer");
}
