/**
 * A published alert in the live view: one block saying what happened to which vehicle, when,
 * where and how fast, where it went and to how many on each channel, and its incident page. The
 * SMS text (and, in human-view.ts, a `TO` line per message received) only with `--verbose`: on a
 * first screen they crowded out the alerts themselves. Every value goes through `shown`.
 */
import type { ObservationOf } from "@fleet-alerts/core";
import { shown } from "@fleet-alerts/core/text";

type Published = ObservationOf<"alert-published">;

/** Under the first line, aligned past its `HH:MM:SS `. */
const INDENT = "         ";

export function alertBlock(alert: Published, time: string, verbose: boolean): string {
  const { vehicleid, drivername } = alert.body;
  return `${[
    shown`${time} ALERT [${alert.severity}] ${alert.rule} #${alert.serialno} ${vehicleid || "unknown vehicle"} (${drivername || "no driver"})`,
    `${INDENT}${whenAndWhere(alert.body)}`,
    shown`${INDENT}${routeText(alert)}; sent: ${recipientsText(alert.recipients)}`,
    ...(verbose ? [shown`${INDENT}SMS: ${alert.sms}`] : []),
  ].join("\n")}${linkLine(alert.link)}`;
}

/** The incident page a message carried, on a line of its own under it: open it to acknowledge. */
export function linkLine(link: string | undefined): string {
  return link ? `\n${shown`${INDENT}Link: ${link}`}` : "";
}

/** The event's time in UTC (the simulated clock's, not the wall clock's), where and how fast. */
function whenAndWhere({ eventtime, position, speedKmh }: Published["body"]): string {
  // The schema checked it is a timestamp; written the one way whatever offset the device cloud used.
  const at = new Date(eventtime).toISOString();
  const place = position
    ? shown`at ${position.lat.toFixed(4)},${position.lng.toFixed(4)} (${position.source})`
    : "at position unknown";
  const speed = speedKmh === null ? "speed unknown" : shown`${Math.round(speedKmh)} km/h`;
  return shown`${at.slice(0, 10)} ${at.slice(11, 19)} UTC ${place}, ${speed}`;
}

/** "email 3 · sms 1 · targets local-webhook"; "nobody now" when every group holds it. */
export function recipientsText(recipients: Published["recipients"]): string {
  const parts = [
    ...(recipients.email > 0 ? [`email ${recipients.email}`] : []),
    ...(recipients.sms > 0 ? [`sms ${recipients.sms}`] : []),
    ...(recipients.smsCapped > 0 ? [`${recipients.smsCapped} past the SMS cap`] : []),
    ...(recipients.targets.length > 0 ? [shown`targets ${recipients.targets.join(", ")}`] : []),
  ];
  return parts.length > 0 ? parts.join(" · ") : "nobody now";
}

/**
 * Its account and the groups it went to ("north · to north-depot, night-shift (held: ops)"); with
 * neither, ops' address got it as unrouted. Just the account where nothing routes (no groups file).
 */
export function routeText(alert: Pick<Published, "account" | "groups" | "held">): string {
  if (alert.groups === undefined && alert.held === undefined) return alert.account;
  const groups = alert.groups ?? [];
  const held = alert.held ?? [];
  const to =
    groups.length > 0
      ? shown`to ${groups.join(", ")}`
      : held.length > 0
        ? "to no group now"
        : "unrouted (to ops)";
  return shown`${alert.account} · ${to}${held.length > 0 ? ` (held: ${held.join(", ")})` : ""}`;
}
