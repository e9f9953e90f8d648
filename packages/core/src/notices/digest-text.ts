import type { DigestModel } from "./digest-model.js";
import { alertLine, count, hoursText, localDateTime } from "./format.js";
import type { NoticeText } from "./message.js";
import type { RecorderSummary } from "./recorder-summary.js";

export interface DigestInput {
  group: string;
  zone: string;
  /** The local date the digest is of (it went out at `digest.at` on it). */
  date: string;
  fromMs: number;
  toMs: number;
  model: DigestModel;
  /** The incident links of the unacknowledged alerts listed (`model.oldestNotAcknowledged`). */
  links: readonly (string | undefined)[];
  /** The fleet's recorders as the audit last found them; absent where the stage runs no audit. */
  recorder?: RecorderSummary;
}

/** A group's digest as text: counts first, then what still needs someone. */
export function digestText(input: DigestInput): NoticeText {
  const { group, zone, model } = input;
  const span = input.toMs - input.fromMs;
  const period = `${localDateTime(zone, input.fromMs)} to ${localDateTime(zone, input.toMs)} (${zone}, ${hoursText(span)}${span === 86_400_000 ? "" : ": the clocks changed"})`;
  const alerts = count(model.total, "alert");
  const body = {
    group,
    date: input.date,
    from: new Date(input.fromMs).toISOString(),
    to: new Date(input.toMs).toISOString(),
    total: model.total,
    held: model.held,
    byRuleAndSeverity: model.byRuleAndSeverity,
    topVehicles: model.topVehicles,
    evidence: model.evidence,
    notAcknowledgedTotal: model.notAcknowledged,
    // The oldest DIGEST_MAX_LISTED, as the email lists them.
    notAcknowledged: model.oldestNotAcknowledged.map((alert) => alert.alertId),
    ...(input.recorder && { recorders: recorderCounts(input.recorder) }),
  };
  const recorders = input.recorder ? ["", ...recorderLines(zone, input.recorder)] : [];
  const subject = `Daily digest ${input.date} for ${group}: ${alerts}`;
  const sms = `fleet-alerts: ${alerts} for ${group} on ${input.date}. See your email.`;
  const intro = `Daily digest for group "${group}", ${period}.`;
  if (model.total === 0) {
    return { subject, sms, body, email: [intro, "", "No alerts in this period.", ...recorders].join("\n") };
  }
  const { evidence } = model;
  const listed = model.oldestNotAcknowledged;
  const more = model.notAcknowledged - listed.length;
  const email = [
    intro,
    "",
    `${alerts}${model.held > 0 ? `, ${model.held} of them held by quiet hours` : ""}.`,
    "",
    "By rule and severity:",
    ...model.byRuleAndSeverity.map((row) => `  ${row.ruleId} (${row.severity}): ${row.count}`),
    "",
    "Vehicles with most alerts:",
    ...model.topVehicles.map((row) => `  ${row.name}: ${row.count}`),
    "",
    `Evidence: ${evidence.stored} stored, ${evidence.unavailable} unavailable, ${evidence.pending} pending, ${evidence.failed} failed, ${evidence.none} without evidence.`,
    "",
    model.notAcknowledged === 0
      ? "Every alert was acknowledged."
      : `Not acknowledged (${model.notAcknowledged}):`,
    ...listed.flatMap((alert, index) => {
      const link = input.links[index];
      return [`- ${alertLine(zone, alert)}`, ...(link ? [`  ${link}`] : [])];
    }),
    ...(more > 0 ? [`  ... and ${more} more.`] : []),
    ...recorders,
  ].join("\n");
  return { subject, sms, body, email };
}

function recorderCounts(summary: RecorderSummary) {
  const { recording, withGaps, offline, parked, offlineDays } = summary;
  return { recording, withGaps, offline, parked, offlineDays };
}

/** The recorder summary: counts, then the devices that need someone, each on one line. */
function recorderLines(zone: string, summary: RecorderSummary): string[] {
  const { recording, withGaps, offline, parked, offlineDays } = summary;
  if (recording + withGaps + offline + parked === 0) return ["Recorders: no audit results yet."];
  const more = (total: number, listed: number) =>
    total > listed ? [`  ... and ${total - listed} more.`] : [];
  return [
    `Recorders (last audit): ${count(recording, "device")} recording normally, ${withGaps} with gaps, ${offline} offline for more than ${count(offlineDays, "day")}, ${parked} parked.`,
    ...(withGaps > 0 ? ["Driven without video:"] : []),
    ...summary.gapsListed.map((device) => `- ${device.name}: ${device.minutes} min without video`),
    ...more(withGaps, summary.gapsListed.length),
    ...(offline > 0 ? [`Offline for more than ${count(offlineDays, "day")}:`] : []),
    ...summary.offlineListed.map(
      (device) =>
        `- ${device.name}: ${device.lastHeardMs > 0 ? `last heard ${localDateTime(zone, device.lastHeardMs)}` : "never heard"}`,
    ),
    ...more(offline, summary.offlineListed.length),
  ];
}
