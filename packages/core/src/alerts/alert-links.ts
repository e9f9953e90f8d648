import type { ShareLinks } from "../share/ports.js";
import { derivedShareToken } from "../share/token.js";
import { incidentLink } from "./incident-link.js";
import type { AlertRecord } from "./record.js";

export interface AlertLinkSettings {
  /** PUBLIC_BASE_URL: where incident links start. */
  baseUrl: string;
  /** SHARE_LINK_SECRET: derives each alert's token from its id (share/token.ts). */
  secret: string;
  /** SHARE_LINK_HOURS, in milliseconds: how long an alert's link works after it is published. */
  lifetimeMs: number;
}

export interface AlertLink {
  token: string;
  /** The incident page's URL: it holds the token, so it goes to the alert's people only, never to logs. */
  url: string;
}

/**
 * The link of an alert's own messages: its token derived from the alert id, its grant (scope
 * view+ack, made by "alert") written before the message goes out, so a link received always opens.
 * A replay gets the same token and finds the grant written: nothing new, the first expiry kept.
 */
export class AlertLinks {
  constructor(
    private readonly shares: Pick<ShareLinks, "createWithToken">,
    private readonly settings: AlertLinkSettings,
  ) {}

  async grant(
    alert: Pick<AlertRecord, "account" | "serialno" | "ruleId" | "alertId">,
    nowMs: number,
  ): Promise<AlertLink> {
    const { token } = derivedShareToken(this.settings.secret, alert.alertId);
    await this.shares.createWithToken(
      {
        account: alert.account,
        serialno: alert.serialno,
        ruleId: alert.ruleId,
        alertId: alert.alertId,
        scope: "view+ack",
        expiresAtMs: nowMs + this.settings.lifetimeMs,
        createdBy: "alert",
      },
      token,
      nowMs,
    );
    return { token, url: incidentLink(this.settings.baseUrl, token) };
  }
}
