import { createHash } from "node:crypto";
import { awsText } from "../aws-text.js";
import { noticeId } from "../notices/deliver-once.js";
import { deviceShown, displayText } from "../text/display.js";
import { type SetAsideEntry, setAsideIdentity } from "./entry.js";
import type { OpsNotice } from "./ports.js";

/** The most entries one notice lists; the table keeps them all (`fleet-alerts set-aside list`). */
export const NOTICE_MAX_ENTRIES = 50;
const REASON_MAX = 300;

const WHAT: Record<SetAsideEntry["step"], string> = {
  record: "its alert record could not be stored",
  publish: "its alert was not published",
  "evidence-job": "its evidence job was not queued (no video will be fetched)",
  "webhook-job": "its webhook job was not queued",
  "escalation-job": "its escalation was not scheduled",
  "offline-check": "its Offline check was not scheduled (no Offline alert will follow)",
};

/**
 * One notice for the entries of one account: what was set aside, why, and that everything else went
 * out. Ids and AWS's reasons only, each on one line (a device id is the device cloud's text): the
 * content that was refused is not repeated. Its id names the entries it tells of (a digest of their
 * keys, whatever their order): told again after a take-over, the same entries carry the same id.
 */
export function setAsideNotice(account: string, entries: readonly SetAsideEntry[]): OpsNotice {
  const listed = entries.slice(0, NOTICE_MAX_ENTRIES).map((entry) => {
    const what = entry.alertId ?? `${entry.ruleId} #${entry.serialno}`;
    const target = entry.targetId === undefined ? "" : ` for target ${entry.targetId}`;
    const reason = displayText(entry.reason, REASON_MAX);
    return `- ${what}, device ${deviceShown(entry.deviceid)}: ${WHAT[entry.step]}${target}. AWS refused it for good: ${reason}`;
  });
  const more = entries.length - listed.length;
  const count = `${entries.length} record${entries.length === 1 ? "" : "s"}`;
  const named = createHash("sha256").update(entries.map(setAsideIdentity).sort().join("\n"));
  return {
    id: noticeId("set-aside", account, named.digest("hex").slice(0, 32)),
    // Account ids are letters, digits, "_" and "-" (config): the subject stays ASCII and short.
    subject: `fleet-alerts: ${count} set aside in account ${account}`,
    text: awsText(
      [
        `fleet-alerts set aside ${count} of account ${account} that AWS refused for what they hold; no retry would change that. Every other alert went out and the poller moved on.`,
        "",
        ...listed,
        ...(more > 0 ? [`... and ${more} more.`] : []),
        "",
        `List them: fleet-alerts set-aside list --account ${account}`,
      ].join("\n"),
    ),
  };
}
