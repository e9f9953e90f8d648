/** The share links the CLI makes (`share create`, `evidence request`): how long they work, and how they are shown. */
import { formatDuration } from "@fleet-alerts/core/rules";
import type { CreatedShare, ShareScope } from "@fleet-alerts/core/share";
import { Option } from "commander";
import { integerAtLeast, parseDurationMs } from "./parse.js";

const DAY_MS = 86_400_000;

/** How long a link the CLI makes works: `--expires`, capped to the stage's `--max-expires`. */
export interface LinkLifetimeOptions {
  expires?: number;
  maxExpires: number;
}

/** `--expires` and `--max-expires`, as `share create` and `evidence request` take them. */
export function linkLifetimeOptions(): Option[] {
  return [
    new Option(
      "--expires <duration>",
      "how long the link works: 90m, 72h, 30d (default: the stage's longest)",
    ).argParser(parseDurationMs),
    new Option("--max-expires <days>", "the stage's longest link, in days (--expires is capped to it)")
      .env("SHARE_MAX_DAYS")
      .argParser(integerAtLeast(1))
      .default(30),
  ];
}

/** The link's lifetime in milliseconds; a longer `--expires` is capped, and the operator told so. */
export function linkLifetimeMs(options: LinkLifetimeOptions): number {
  const maxMs = options.maxExpires * DAY_MS;
  if (options.expires !== undefined && options.expires > maxMs)
    console.error(
      `--expires ${formatDuration(options.expires / 1000)} is over this stage's longest link: capped at ${formatDuration(maxMs / 1000)}`,
    );
  return Math.min(options.expires ?? maxMs, maxMs);
}

/**
 * The new link, then when it expires, its scope and token id: the only place the CLI prints a
 * token, once, for the operator who made it.
 */
export function newLinkLines(
  baseUrl: string,
  created: CreatedShare,
  lifetimeMs: number,
  scope: ShareScope,
): string[] {
  return [
    `${baseUrl.replace(/\/+$/, "")}/i/${created.token}`,
    `expires ${new Date(created.expiresAtMs).toISOString()} (in ${formatDuration(lifetimeMs / 1000)}), ` +
      `scope ${scope}, token id ${created.tokenId}`,
  ];
}
