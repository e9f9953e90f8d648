import { Duration } from "aws-cdk-lib";
import { RECORD_CLAIM_LEASE_MS } from "../packages/core/src/alerts/delivery-ledger.js";
import { ESCALATION_CLAIM_LEASE_MS } from "../packages/core/src/escalation/run.js";
import { EVIDENCE_CLAIM_LEASE_MS } from "../packages/core/src/evidence/announce-once.js";
import { NOTICE_CLAIM_LEASE_MS } from "../packages/core/src/notices/deliver-once.js";
import { SET_ASIDE_TELL_LEASE_MS } from "../packages/core/src/setaside/set-aside.js";
import { WEBHOOK_CLAIM_LEASE_MS } from "../packages/core/src/webhooks/config.js";
import { CONFIRM_TIMEOUT, ESCALATE_TIMEOUT, EVIDENCE_TIMEOUT } from "./functions.js";
import { NOTICES_TIMEOUT } from "./notices.js";
import { RECORDER_AUDIT_TIMEOUT } from "./recorder-audit.js";
import { POLLER_TIMEOUT_SECONDS } from "./stage-config.js";
import { WEBHOOK_TIMEOUT } from "./webhooks.js";

/**
 * How much longer than its holder's Lambda timeout a claim's lease must last: the writes a holder
 * makes as its deadline passes, and the clocks of two containers apart. Leases are measured on the
 * wall clock, as the timeouts are.
 */
export const CLAIM_LEASE_MARGIN = Duration.minutes(1);

/** A claim's lease, and every function that may hold such a claim, with its timeout. */
export interface ClaimLease {
  lease: string;
  leaseMs: number;
  holders: Record<string, Duration>;
}

/**
 * Every claim a publisher takes before it publishes (docs/design/exactly-once.md, "Every other
 * publisher"), with the functions that take it. The poller's own lease (cursor/account-lock.ts) is
 * fenced differently and not listed.
 */
export const CLAIM_LEASES: readonly ClaimLease[] = [
  {
    lease: "RECORD_CLAIM_LEASE_MS",
    leaseMs: RECORD_CLAIM_LEASE_MS,
    // A single alert record's publication: the Offline confirmation's, the recorder audit's gap
    // alerts, and a pending record in a poll's window.
    holders: {
      Confirm: CONFIRM_TIMEOUT,
      RecorderAudit: RECORDER_AUDIT_TIMEOUT,
      Poller: Duration.seconds(POLLER_TIMEOUT_SECONDS),
    },
  },
  {
    lease: "NOTICE_CLAIM_LEASE_MS",
    leaseMs: NOTICE_CLAIM_LEASE_MS,
    // Digests and summaries; the poller's stale summaries.
    holders: { Notices: NOTICES_TIMEOUT, Poller: Duration.seconds(POLLER_TIMEOUT_SECONDS) },
  },
  {
    lease: "ESCALATION_CLAIM_LEASE_MS",
    leaseMs: ESCALATION_CLAIM_LEASE_MS,
    holders: { Escalate: ESCALATE_TIMEOUT },
  },
  // Evidence ready, footage at risk.
  {
    lease: "EVIDENCE_CLAIM_LEASE_MS",
    leaseMs: EVIDENCE_CLAIM_LEASE_MS,
    holders: { Evidence: EVIDENCE_TIMEOUT },
  },
  // A delivery, the notice of a disabled target.
  { lease: "WEBHOOK_CLAIM_LEASE_MS", leaseMs: WEBHOOK_CLAIM_LEASE_MS, holders: { Webhook: WEBHOOK_TIMEOUT } },
  {
    lease: "SET_ASIDE_TELL_LEASE_MS",
    leaseMs: SET_ASIDE_TELL_LEASE_MS,
    // Those that set records aside, and the sweep.
    holders: {
      Poller: Duration.seconds(POLLER_TIMEOUT_SECONDS),
      Confirm: CONFIRM_TIMEOUT,
      Notices: NOTICES_TIMEOUT,
    },
  },
];

/**
 * Refuses the synth when a lease could end while a function holding its claim still runs: another
 * delivery would take the live claim over, and the message would go out twice.
 */
export function checkClaimLeases(leases: readonly ClaimLease[] = CLAIM_LEASES): void {
  const problems = leases.flatMap(({ lease, leaseMs, holders }) =>
    Object.entries(holders)
      .filter(([, timeout]) => timeout.toMilliseconds() + CLAIM_LEASE_MARGIN.toMilliseconds() > leaseMs)
      .map(
        ([holder, timeout]) =>
          `${lease} (${leaseMs / 1000} s) must outlast the ${holder} function's timeout (${timeout.toSeconds()} s) by ${CLAIM_LEASE_MARGIN.toSeconds()} s`,
      ),
  );
  if (problems.length > 0) throw new Error(`claims could be taken over while held: ${problems.join("; ")}`);
}
