import { expiresAfterDays, keys } from "../store/keys.js";
import type { GroupsFile } from "./groups-schema.js";
import { type HeldItem, ROUTING_ITEM_TTL_DAYS, type RoutedItem, utcHourIso } from "./items.js";
import { matchingGroups, type RoutableAlert, severityAtLeast } from "./match.js";
import { quietWindowAt } from "./quiet-window.js";
import { recipientId } from "./recipients.js";
import { type Route, UNROUTED_RECIPIENT } from "./route.js";

/** The held and routed items (items.ts): written once per alert and group; a rewrite changes nothing. */
export interface RoutingItemStore {
  put(items: readonly (HeldItem | RoutedItem)[]): Promise<void>;
}

/** The SMS an alert may send now, per recipient, within the caps of its UTC hour. */
export interface SmsCapStore {
  /**
   * Counts the alert's texts to `recipients` in the hour starting at `hourIso`: texted, or past the
   * recipient's or the device's cap. Idempotent per alert id: asked again, the same answer.
   */
  count(
    alert: RoutableAlert,
    recipients: readonly string[],
    hourIso: string,
  ): Promise<{ texted: string[]; capped: string[] }>;
}

export interface RouterPorts {
  items: RoutingItemStore;
  smsCaps: SmsCapStore;
}

/** The routing step as delivery sees it (Router; a fake in decision tests). */
export interface AlertRouter {
  route(alert: RoutableAlert, atMs: number): Promise<Route>;
}

/**
 * Decides where an alert goes (route.ts): the groups whose selectors match, which of them hold it
 * for their quiet hours, the recipients (ids) and webhook targets of the others, SMS past a cap.
 * Writes the items the notices function reads (held, routed, SMS hour) before answering, so that
 * by the time the alert is marked published its summaries and digest entries exist.
 */
export class Router implements AlertRouter {
  constructor(
    private readonly groupsFile: GroupsFile,
    /** FLEET_TIME_ZONE: the quiet hours of a group without a time zone of its own. */
    private readonly fleetTimeZone: string,
    private readonly ports: RouterPorts,
  ) {}

  /**
   * The alert's route as of `atMs`. The delivery step passes the record's creation time, not the
   * clock: a replay after a crash then finds the same windows, the same SMS hour and the same item
   * keys, and so routes exactly as the first attempt did.
   */
  async route(alert: RoutableAlert, atMs: number): Promise<Route> {
    const matching = matchingGroups(this.groupsFile.groups, alert);
    const atIso = new Date(atMs).toISOString();
    const items: (HeldItem | RoutedItem)[] = [];
    const delivering: typeof matching = [];
    const held: string[] = [];
    const facts = {
      alertId: alert.alertId,
      account: alert.account,
      serialno: alert.serialno,
      ruleId: alert.ruleId,
      severity: alert.severity,
      deviceid: alert.deviceid,
      ...(alert.vehicleid !== undefined && { vehicleid: alert.vehicleid }),
      eventtime: alert.eventtime,
    };
    for (const group of matching) {
      const quiet = group.quietHours;
      // holdBelow is "warning" or "critical": a critical alert always goes out.
      const window =
        quiet && !severityAtLeast(alert.severity, quiet.holdBelow)
          ? quietWindowAt(quiet, group.timeZone ?? this.fleetTimeZone, atMs)
          : undefined;
      if (window) {
        const windowEnd = new Date(window.endMs).toISOString();
        held.push(group.name);
        items.push({
          pk: keys.group(group.name),
          sk: keys.held(windowEnd, alert.alertId),
          group: group.name,
          ...facts,
          windowStart: new Date(window.startMs).toISOString(),
          windowEnd,
          heldAt: atIso,
          expiresAt: expiresAfterDays(window.endMs, ROUTING_ITEM_TTL_DAYS),
        });
      } else {
        delivering.push(group);
      }
      items.push({
        pk: keys.group(group.name),
        sk: keys.routed(atIso, alert.alertId),
        group: group.name,
        ...facts,
        routedAt: atIso,
        held: window !== undefined,
        expiresAt: expiresAfterDays(atMs, ROUTING_ITEM_TTL_DAYS),
      });
    }
    await this.ports.items.put(items);

    if (matching.length === 0)
      return { groups: [], held: [], email: [UNROUTED_RECIPIENT], sms: [], smsCapped: [], targets: [] };
    const distinct = (values: string[]) => [...new Set(values)];
    const email = distinct(delivering.flatMap((group) => group.email.map((a) => recipientId("email", a))));
    const smsWanted = distinct(delivering.flatMap((group) => group.sms.map((n) => recipientId("sms", n))));
    const sms =
      smsWanted.length === 0
        ? { texted: [], capped: [] }
        : await this.ports.smsCaps.count(alert, smsWanted, utcHourIso(atMs));
    return {
      groups: delivering.map((group) => group.name),
      held,
      email,
      sms: sms.texted,
      smsCapped: sms.capped,
      targets: distinct(delivering.flatMap((group) => group.targets)),
    };
  }
}
