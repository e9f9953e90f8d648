import type { Target } from "../routing/groups-schema.js";

/**
 * A target URL that cannot be used. The message names the target and the rule it breaks, never
 * the URL: a webhook URL's path and query are its secret (Slack's and Teams' carry the token).
 */
export class TargetUrlError extends Error {
  constructor(
    readonly targetId: string,
    readonly problem: string,
  ) {
    super(`target ${targetId}: its URL (TARGET_${targetEnvName(targetId)}_URL) ${problem}`);
    this.name = "TargetUrlError";
  }
}

/** The target's name as the SST secret names spell it: upper case, '-' as '_'. */
export function targetEnvName(targetId: string): string {
  return targetId.toUpperCase().replace(/-/g, "_");
}

// The retired Office 365 connectors (Microsoft retired them in 2025): outlook.office.com/webhook…
// and <tenant>.webhook.office.com/webhookb2…
function isOffice365Connector(url: URL): boolean {
  const host = url.hostname.toLowerCase();
  return (
    (host === "outlook.office.com" && url.pathname.toLowerCase().startsWith("/webhook")) ||
    host === "webhook.office.com" ||
    host.endsWith(".webhook.office.com")
  );
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]"]);

/**
 * Checks a target's URL for its kind; returns it parsed, or throws a TargetUrlError. Plain http is
 * accepted only to a loopback address and only with `allowLoopbackHttp`: the local mode's and the
 * tests' receivers on 127.0.0.1 (WEBHOOK_ALLOW_LOOPBACK_HTTP, never set in a deployed stage).
 */
export function parseTargetUrl(
  targetId: string,
  kind: Target["kind"],
  text: string,
  { allowLoopbackHttp = false }: { allowLoopbackHttp?: boolean } = {},
): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TargetUrlError(targetId, "is not a URL");
  }
  const loopback = url.protocol === "http:" && allowLoopbackHttp && LOOPBACK_HOSTS.has(url.hostname);
  if (url.protocol !== "https:" && !loopback) throw new TargetUrlError(targetId, "must use https");
  if (url.username || url.password)
    throw new TargetUrlError(targetId, "must not carry credentials (user:password@)");
  if (kind === "slack" && !loopback && url.hostname.toLowerCase() !== "hooks.slack.com")
    throw new TargetUrlError(targetId, "must be a Slack incoming webhook (https://hooks.slack.com/...)");
  if (kind === "teams" && isOffice365Connector(url))
    throw new TargetUrlError(
      targetId,
      "is a retired Office 365 connector URL: create a Teams Workflows webhook ('When a Teams webhook request is received') and use its URL",
    );
  return url;
}
