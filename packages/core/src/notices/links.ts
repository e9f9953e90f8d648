import type { AlertLinks } from "../alerts/alert-links.js";
import { InvalidAlertIdError, parseAlertId } from "../share/alert-id.js";

/**
 * The incident link of an alert, for a notice listing it; undefined when links are not set up
 * (no PUBLIC_BASE_URL and SHARE_LINK_SECRET). The URL holds the token: it goes into the message
 * only, never into a log line or an error.
 */
export type LinkOf = (alertId: string, nowMs: number) => Promise<string | undefined>;

/**
 * Links as the alert's own messages carry them: the token derived from the alert id, its grant
 * written if it is not yet (a held alert's may not be); an existing grant is kept as it is, with
 * its first expiry.
 */
export function alertLinkOf(links: AlertLinks): LinkOf {
  return async (alertId, nowMs) => {
    let ref: ReturnType<typeof parseAlertId>;
    try {
      ref = parseAlertId(alertId);
    } catch (error) {
      // An item that names no alert is listed without a link rather than hold up the notice.
      if (error instanceof InvalidAlertIdError) return undefined;
      throw error;
    }
    return (await links.grant({ ...ref, alertId }, nowMs)).url;
  };
}

/** Each alert id's link, in order; with no link setting, none. */
export async function linksOf(
  linkOf: LinkOf | undefined,
  alertIds: readonly string[],
  nowMs: number,
): Promise<(string | undefined)[]> {
  if (!linkOf) return alertIds.map(() => undefined);
  return Promise.all(alertIds.map((alertId) => linkOf(alertId, nowMs)));
}
