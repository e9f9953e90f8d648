import type { TimestampFacts } from "../timestamp/facts.js";
import { BAG_FILES } from "./bag-layout.js";
import { type Inspection, messageOf } from "./inspection.js";

/** Who stamped, and when: what a report of a good token shows. */
export type TimestampIdentity = Pick<TimestampFacts, "genTime" | "tsaName">;

/** What a check of an RFC 3161 response found: its problems (none: good), and what it says when it could be read. */
export interface TimestampCheck {
  problems: string[];
  facts?: TimestampIdentity;
}

/**
 * Checks a DER TimeStampResp against the bytes it should stamp (the tag manifest's). Given by the
 * caller, so that verifying a bag does not depend on how tokens are checked, nor on which CA is trusted.
 */
export type TimestampChecker = (response: Uint8Array, stampedData: Uint8Array) => Promise<TimestampCheck>;

export type TokenCheckOutcome =
  | { token: "absent" }
  /** A token is there and was not checked (no checker, or nothing to check it against): always with a problem. */
  | { token: "not-checked" }
  | { token: "checked"; facts?: TimestampIdentity };

/** The time-stamp token, when the bag has one: it must stamp the tag manifest as it is now. */
export async function checkTimestamp(
  inspection: Inspection,
  checker: TimestampChecker | undefined,
): Promise<TokenCheckOutcome> {
  const path = BAG_FILES.timestampToken;
  if (!inspection.has(path)) return { token: "absent" };
  if (checker === undefined) {
    inspection.report({
      kind: "timestamp",
      path,
      detail: "is a time-stamp token, and nothing was given to check it",
    });
    return { token: "not-checked" };
  }
  if (!inspection.has(BAG_FILES.tagManifest)) {
    inspection.report({
      kind: "timestamp",
      path,
      detail: `stamps ${BAG_FILES.tagManifest}, which is missing`,
    });
    return { token: "not-checked" };
  }
  const response = await inspection.bytes(path);
  const stampedData = await inspection.bytes(BAG_FILES.tagManifest);
  // Either one unreadable has been reported as such.
  if (response === undefined || stampedData === undefined) return { token: "not-checked" };
  try {
    const { problems, facts } = await checker(response, stampedData);
    for (const detail of problems) inspection.report({ kind: "timestamp", path, detail });
    return { token: "checked", ...(facts && { facts }) };
  } catch (error) {
    inspection.report({ kind: "timestamp", path, detail: `could not be checked: ${messageOf(error)}` });
    return { token: "not-checked" };
  }
}
