import type { GroupsFile } from "./groups-schema.js";
import { recipientId } from "./recipients.js";
import { UNROUTED_RECIPIENT } from "./route.js";

/** One subscription of the alerts topic: an email address or SMS number, filtered on its id. */
export interface RecipientSubscription {
  recipientId: string;
  protocol: "email" | "sms";
  endpoint: string;
  /** `{ "to": ["<its id>"] }`: plain String equality, which SNS and the emulator both match. */
  filterPolicy: { to: string[] };
}

/**
 * The alerts topic's recipient subscriptions: one per distinct email address and SMS number over
 * all groups, so that an address in two groups is one subscription and gets one message. The
 * infrastructure builds exactly these (infra/alerting.ts), and the routing tests subscribe queues
 * with the same filter policies.
 */
export function recipientSubscriptions(groupsFile: GroupsFile): RecipientSubscription[] {
  const byId = new Map<string, RecipientSubscription>();
  for (const group of groupsFile.groups) {
    const channels = [
      ...group.email.map((address) => ["email", address] as const),
      ...group.sms.map((number) => ["sms", number] as const),
    ];
    for (const [protocol, endpoint] of channels) {
      const id = recipientId(protocol, endpoint);
      if (!byId.has(id))
        byId.set(id, { recipientId: id, protocol, endpoint: endpoint.trim(), filterPolicy: { to: [id] } });
    }
  }
  return [...byId.values()];
}

/** The filter policy of the ops' emails on the alerts topic: what no group selects. */
export const UNROUTED_FILTER_POLICY = { to: [UNROUTED_RECIPIENT] };
