/**
 * The live view of `npm start`: a line per thing worth seeing, and a status line (on a terminal)
 * kept up to date from the same totals the `--json` summary carries. Every value is written through
 * the `shown` tag (core text/terminal.ts): the device cloud's texts reach these lines, and none may act on
 * the terminal or add a line.
 */
import type { Observation } from "@fleet-alerts/core";
import { formatDuration } from "@fleet-alerts/core/rules";
import { shown } from "@fleet-alerts/core/text";
import { alertBlock, linkLine } from "./alert-block.js";
import type { LocalLine, LocalTotals } from "./report.js";

/** What to print for a line: lines to keep, and/or the status line to show in place. */
export interface HumanOutput {
  print?: string;
  status?: string;
}

const MB = 1_048_576;
const megabytes = (bytes: number) => (bytes / MB).toFixed(1);

/** `--verbose`: also each alert's SMS, and a `TO` line per message a recipient received. */
export interface HumanViewOptions {
  verbose: boolean;
}

export function humanView(
  line: LocalLine,
  totals: LocalTotals,
  time: string,
  { verbose }: HumanViewOptions = { verbose: false },
): HumanOutput {
  switch (line.type) {
    case "started":
      return {
        print: [
          line.simulated
            ? shown`fleet-alerts, locally: ${line.accounts.length} simulated fleet(s) of ${line.devices} devices at ${line.speed}x, AWS emulated on 127.0.0.1.`
            : `fleet-alerts, locally: a real device cloud (read-only), AWS emulated on 127.0.0.1.`,
          ...line.accounts.map((account) => shown`  account ${account.id}: ${account.deviceCloud}`),
          shown`Groups: ${line.groups.names.join(", ")} (${line.groups.file}).`,
          ...(line.webhook ? [webhookText(line.webhook)] : []),
          shown`Incident pages are served at ${line.incident} (links: ${line.incident}/i/<token>).`,
          shown`Alerts, suppressions, Offline checks, acknowledgements, escalations, stored evidence and evidence waiting for its vehicle appear below; evidence is copied to ${line.evidenceDir}. Ctrl-C stops.`,
          // A block counts an alert's recipients: say where the names are.
          ...(verbose
            ? []
            : ["Each alert's block counts its recipients per channel; --verbose shows each message sent."]),
        ].join("\n"),
      };
    case "problem":
      return { print: shown`${time} PROBLEM ${line.message}` };
    // By default an alert's block counts its recipients per channel instead.
    case "notified":
      return verbose
        ? {
            print: shown`${time} TO ${line.recipient} (${line.channel}): ${line.subject ?? line.kind}${line.alertId ? ` [${line.alertId}]` : ""}`,
          }
        : {};
    case "alert-published":
      return { print: alertBlock(line, time, verbose) };
    case "evidence-copied":
      return {
        print: [
          ...line.clips.map(
            (clip) =>
              shown`${time} EVIDENCE stored ${clip.file} (${megabytes(clip.bytes)} MB, sha256 ${clip.sha256})${line.partial ? " (partial)" : ""}`,
          ),
          shown`${time} CLAIM PACK ${line.report}`,
        ].join("\n"),
      };
    case "evidence-progress": {
      const total = line.totalBytes ? shown`/${megabytes(line.totalBytes)}` : "";
      return { status: shown`fetching ${line.key}: ${megabytes(line.bytes)}${total} MB` };
    }
    case "local-summary":
      return { print: summaryLine(line) };
    case "poll-summary":
      return { status: statusLine(totals) };
    // Shown once its files are in the evidence folder (evidence-copied).
    case "evidence-stored":
      return {};
    default:
      // Composed of shown parts, with line breaks of its own.
      return { print: `${time} ${observationText(line)}` };
  }
}

/**
 * The local webhook target. A secret generated for this run is printed here, the one place the
 * local mode shows a secret: whoever runs the receiver needs it to verify the signatures.
 */
function webhookText(webhook: { target: string; generatedSecret?: string }): string {
  return webhook.generatedSecret
    ? shown`Every alert is also POSTed to the --webhook URL (target ${webhook.target}), signed with this run's generated secret:\n  WEBHOOK_SECRET=${webhook.generatedSecret}\n  (set WEBHOOK_SECRET to choose it)`
    : shown`Every alert is also POSTed to the --webhook URL (target ${webhook.target}), signed with WEBHOOK_SECRET.`;
}

/** One observation as text (alerts, poll summaries and stored evidence are shown otherwise). */
function observationText(
  observation: Exclude<Observation, { type: "alert-published" | "poll-summary" | "evidence-stored" }>,
) {
  const about = (item: { rule: string; serialno?: string; deviceid?: string }) =>
    shown`${item.rule} #${item.serialno} device ${item.deviceid}`;
  switch (observation.type) {
    case "alert-failed":
    case "evidence-failed":
      return shown`PROBLEM ${observation.type} ${about(observation)}: ${observation.reason}`;
    case "alert-suppressed":
      return shown`suppressed ${about(observation)} (${observation.suppressedSoFar} so far)`;
    case "event-rejected":
      return shown`event-rejected #${observation.serialno ?? "?"}: ${observation.issues.map((issue) => `${issue.path}: ${issue.message}`).join("; ")}`;
    case "offline-scheduled":
      return shown`offline-scheduled ${about(observation)}, check at ${observation.dueAt}`;
    case "offline-cancelled":
      return shown`offline-cancelled ${about(observation)} (${observation.reason})`;
    case "evidence-waiting":
      return shown`evidence waiting ${about(observation)}: retry ${observation.attempt} in ${observation.retryInSeconds} s`;
    case "evidence-unavailable":
      return shown`evidence unavailable ${about(observation)} (${observation.footage === "overwritten" ? "overwritten: the vehicle stayed offline" : "not recorded"})`;
    case "evidence-parked":
      return shown`EVIDENCE PARKED ${about(observation)}: the vehicle is offline (since ${observation.offlineSince}); waiting for it until ${observation.keptUntil}${observation.retentionDays === null ? " (card retention unknown)" : ` (card keeps ~${observation.retentionDays} days)`}`;
    case "evidence-woken":
      return shown`EVIDENCE WOKEN ${about(observation)}: the vehicle is online again (${observation.by === "online-event" ? "its Online event" : "the online list"}), fetching`;
    case "evidence-at-risk":
      return shown`FOOTAGE AT RISK ${about(observation)}: offline since ${observation.offlineSince}, overwritten after ${observation.keptUntil}; ${observation.recipients} recipient(s) told`;
    case "alert-acknowledged":
      return shown`acknowledged ${about(observation)} at ${observation.at}${observation.tokenId ? ` (link ${observation.tokenId})` : ""}`;
    case "alert-escalated":
      return `${shown`ESCALATED ${about(observation)} to level ${observation.level} of ${observation.levels}: not acknowledged after ${formatDuration(observation.unacknowledgedSeconds)}`}${linkLine(observation.link)}`;
    case "escalation-cancelled":
      return shown`escalation-cancelled ${about(observation)}: level ${observation.level} not sent (${observation.reason})`;
    case "record-set-aside":
      return shown`PROBLEM set aside ${observation.alertId ?? `${observation.ruleId} #${observation.serialno}`} device ${observation.deviceid}: ${observation.step} refused for good (${observation.reason}); ops told, the rest went out`;
    case "stale-summary-sent":
      return shown`stale summary #${observation.summary} to ${observation.group ?? "the ops' emails"}: ${observation.alerts} alert(s) held back as stale (${Object.entries(
        observation.byRule,
      )
        .map(([rule, n]) => `${rule} ${n}`)
        .join(", ")})`;
    case "recorder-gap":
      return shown`NOT RECORDING device ${observation.deviceid}: drove ${observation.minutes} min without video (${observation.kind}) from ${observation.from} to ${observation.to} [${observation.alertId}]`;
    case "retention-estimated":
      return shown`card retention of device ${observation.deviceid}: ${observation.atLeast ? "at least" : "about"} ${observation.days} day(s) of footage`;
    case "recorder-audit-failed":
      return shown`recorder audit skipped device ${observation.deviceid}: ${observation.reason}`;
    case "recorder-audit-summary":
      return shown`recorder audit ${observation.account}, period from ${observation.period}: ${observation.devicesAudited} device(s) audited, ${observation.gaps} gap(s), ${observation.retentionsEstimated} retention(s) estimated, ${observation.calls} device-cloud call(s) (${observation.outcome})`;
    case "gps-history-unavailable":
      return shown`gps history unavailable for device ${observation.deviceid} (${observation.reason}): ${observation.alerts} alert(s) use the next best position`;
    case "poll-fenced":
      return shown`poll of ${observation.account} fenced at ${observation.at} (lease epoch ${observation.epoch}): another poll holds the lease; this one sent nothing more`;
    default:
      // alert-stale, offline-confirmed, offline-suppressed, offline-busy
      return shown`${observation.type} ${about(observation)}`;
  }
}

/** Short enough for a narrow terminal: suppressed counts repeats and Offline alerts alike. */
export function statusLine(totals: LocalTotals): string {
  const count = totals.observations;
  return [
    `events ${totals.eventsRead}`,
    `alerts ${count["alert-published"]}`,
    `suppressed ${count["alert-suppressed"] + count["offline-suppressed"]}`,
    `evidence ${totals.evidencePending} pending, ${count["evidence-stored"]} stored`,
    `lag ${totals.lagSeconds} s`,
  ].join(" | ");
}

export function summaryLine(totals: LocalTotals): string {
  const count = totals.observations;
  return [
    `Summary: ${totals.eventsRead} events read, ${count["alert-published"]} alerts, ${count["alert-suppressed"]} suppressed, ${count["alert-stale"]} stale, ${count["event-rejected"]} rejected, ${count["alert-failed"]} failed, ${count["record-set-aside"]} set aside;`,
    `Offline ${count["offline-scheduled"]} scheduled, ${count["offline-confirmed"]} confirmed, ${count["offline-suppressed"]} suppressed, ${count["offline-cancelled"]} cancelled;`,
    `${count["alert-acknowledged"]} acknowledged, ${count["alert-escalated"]} levels escalated, ${count["escalation-cancelled"]} cancelled by an acknowledgement;`,
    `evidence ${count["evidence-stored"]} stored, ${count["evidence-unavailable"]} unavailable, ${count["evidence-failed"]} failed, ${totals.evidencePending} pending (${count["evidence-parked"]} parked, ${count["evidence-woken"]} woken, ${count["evidence-at-risk"]} at risk);`,
    `${totals.problems} problems.`,
  ].join(" ");
}
