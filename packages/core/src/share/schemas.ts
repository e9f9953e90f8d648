import * as z from "zod";

// The share and audit items as read back from the table; the types the stores return follow from them.

export const SHARE_SCOPES = ["view", "view+ack"] as const;
export type ShareScope = (typeof SHARE_SCOPES)[number];

/** What was done through a link; `evidence-request`: footage asked for by hand, the link made for it. */
export const ACCESS_ACTIONS = ["view", "ack", "clip", "pack", "evidence-request"] as const;
export type AccessAction = (typeof ACCESS_ACTIONS)[number];

/** What an alert's listing shows of a link: never the token, nor its hash beyond the token id. */
export const shareListingSchema = z.object({
  alertId: z.string(),
  tokenId: z.string(),
  scope: z.enum(SHARE_SCOPES),
  expiresAtMs: z.number(),
  createdBy: z.string(),
  createdAt: z.string(),
  revoked: z.boolean(),
});
export type ShareListing = z.output<typeof shareListingSchema>;

/** A link's lookup item: the listing's fields, the alert's parts and the token's full hash. */
export const shareLookupSchema = shareListingSchema.extend({
  account: z.string(),
  serialno: z.string().transform((digits) => BigInt(digits)),
  ruleId: z.string(),
  hash: z.string(),
});

/** What a live link grants: one alert, in a scope, until its expiry. */
export type ShareGrant = Omit<z.output<typeof shareLookupSchema>, "hash" | "revoked">;

export const auditEntrySchema = z.object({
  alertId: z.string(),
  tokenId: z.string(),
  action: z.enum(ACCESS_ACTIONS),
  userAgent: z.string(),
  atMs: z.number(),
  /** An `evidence-request`'s requester and reason (the operator's words, one line each). */
  by: z.string().optional(),
  reason: z.string().optional(),
});
export type AuditEntry = z.output<typeof auditEntrySchema>;
