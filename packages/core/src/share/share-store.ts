import { timingSafeEqual } from "node:crypto";
import { PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { alertIdOf } from "../alerts/record.js";
import { conditionally, getItem, pageWithPrefix, type TableRef } from "../store/dynamo.js";
import { keys } from "../store/keys.js";
import { type AlertRef, InvalidAlertIdError, parseAlertId } from "./alert-id.js";
import { checkedLimit, type ListingPage, type ListingPageRequest } from "./listing-page.js";
import type { ShareLinks } from "./ports.js";
import {
  type ShareGrant,
  type ShareListing,
  type ShareScope,
  shareListingSchema,
  shareLookupSchema,
} from "./schemas.js";
import { hashOfToken, type NewShareToken, newShareToken, parseShareToken, parseTokenId } from "./token.js";

// A link's items stay a week past its expiry, then the table's TTL removes them: time enough to look
// into a link someone reports as not working. TTL deletes lazily, so resolve checks expiry itself.
const KEEP_AFTER_EXPIRY_SECONDS = 7 * 86_400;

export interface NewShareGrant extends AlertRef {
  alertId: string;
  scope: ShareScope;
  expiresAtMs: number;
  createdBy: string;
}

export interface CreatedShare {
  /** The secret, to put in the link; returned here once and stored nowhere. */
  token: string;
  tokenId: string;
  expiresAtMs: number;
}

/**
 * Share links in DynamoDB: a lookup item per link, found from the token alone, and a listing item
 * in the alert's account partition. Only the token's SHA-256 is kept.
 *
 * The lookup item is keyed by the token id (the hash's first 16 hex digits) and holds the whole
 * hash, compared on resolve: `revoke` knows only the alert and the token id, and must reach it.
 *
 * The table has no transactions here (the emulator has none): the two items are conditional
 * single-item writes, ordered so that a crash between them never leaves a link that resolves but
 * is not listed.
 */
export class ShareStore implements ShareLinks {
  constructor(private readonly table: TableRef) {}

  async create(grant: NewShareGrant, nowMs: number): Promise<CreatedShare> {
    const created = await this.#write(grant, newShareToken(), nowMs);
    // Two of 2^64 token ids alike: not worth a retry loop, but never an overwrite.
    if (created === undefined) throw new Error("share link id already taken; create the link again");
    return created;
  }

  /**
   * The grant of a token made elsewhere (an alert's own link, derived from its id), written once:
   * a second call with the same token changes nothing and returns the grant as first written
   * (its expiry), so a replayed publish may call it again. Throws if the token's id is taken by
   * another alert's link.
   */
  async createWithToken(grant: NewShareGrant, token: string, nowMs: number): Promise<CreatedShare> {
    if (parseShareToken(token) === undefined) throw new Error("not a share token");
    const created = await this.#write(grant, { token, ...hashOfToken(token) }, nowMs);
    if (created !== undefined) return created;
    const { tokenId } = hashOfToken(token);
    const item = await getItem(this.table, keys.share(tokenId), keys.shareSort);
    const existing = item && shareLookupSchema.parse(item);
    if (existing?.alertId !== grant.alertId || existing.hash !== hashOfToken(token).hash)
      throw new Error(`share link id ${tokenId} is taken by another link`);
    return { token, tokenId, expiresAtMs: existing.expiresAtMs };
  }

  /** Writes both items; undefined if the lookup item exists already (nothing of it overwritten). */
  async #write(
    grant: NewShareGrant,
    { token, hash, tokenId }: NewShareToken,
    nowMs: number,
  ): Promise<CreatedShare | undefined> {
    // A grant listed under one alert must never open another.
    if (alertIdOf(grant.account, grant.serialno, grant.ruleId) !== grant.alertId)
      throw new InvalidAlertIdError(grant.alertId);
    const listing: ShareListing = {
      alertId: grant.alertId,
      tokenId,
      scope: grant.scope,
      expiresAtMs: grant.expiresAtMs,
      createdBy: grant.createdBy,
      createdAt: new Date(nowMs).toISOString(),
      revoked: false,
    };
    const expiresAt = Math.floor(grant.expiresAtMs / 1000) + KEEP_AFTER_EXPIRY_SECONDS;
    // Listed first: a link is never live without showing in `share list`. A listing left by an
    // earlier attempt of the same token is its own: the key holds the alert and the token id.
    await this.#putNew(keys.account(grant.account), listingSort(grant, tokenId), { ...listing, expiresAt });
    const lookup = {
      ...listing,
      account: grant.account,
      serialno: grant.serialno.toString(),
      ruleId: grant.ruleId,
      hash,
      expiresAt,
    };
    if (!(await this.#putNew(keys.share(tokenId), keys.shareSort, lookup))) return undefined;
    return { token, tokenId, expiresAtMs: grant.expiresAtMs };
  }

  /**
   * The grant of a live link, else undefined: unknown, malformed, expired and revoked tokens are
   * not told apart. A malformed one is refused without a request; every other token costs one
   * GetItem whatever its fate, so the timings differ by no more than that read's own jitter.
   */
  async resolve(token: string, nowMs: number): Promise<ShareGrant | undefined> {
    if (parseShareToken(token) === undefined) return undefined;
    const { hash, tokenId } = hashOfToken(token);
    const item = await getItem(this.table, keys.share(tokenId), keys.shareSort);
    if (item === undefined) return undefined;
    const { hash: stored, revoked, ...grant } = shareLookupSchema.parse(item);
    if (!sameHash(stored, hash) || revoked || nowMs >= grant.expiresAtMs) return undefined;
    return grant;
  }

  /**
   * A page of the alert's live links (neither revoked nor expired), in token-id order, the order
   * they are stored in; `next` is the page's last token id. Revoked and expired links are read
   * past, never held: a page holds its live links only.
   */
  async list(alertId: string, nowMs: number, page: ListingPageRequest): Promise<ListingPage<ShareListing>> {
    const alert = parseAlertId(alertId);
    const live = (item: Record<string, unknown>) => item.revoked !== true && nowMs < Number(item.expiresAtMs);
    const { items, next } = await pageWithPrefix(
      this.table,
      keys.account(alert.account),
      keys.shareListingPrefix(alert.serialno, alert.ruleId),
      { limit: checkedLimit(page.limit), after: page.after, keep: live },
    );
    return { entries: items.map((item) => shareListingSchema.parse(item)), ...(next && { next }) };
  }

  /**
   * Ends a link at once (the lookup item first: that is what resolve reads). True if the alert had
   * a link of that id, revoked before or not; false for any other id.
   */
  async revoke(alertId: string, tokenId: string): Promise<boolean> {
    const alert = parseAlertId(alertId);
    if (parseTokenId(tokenId) === undefined) return false;
    const lookupRevoked = await this.#markRevoked(keys.share(tokenId), keys.shareSort, alertId);
    const listingRevoked = await this.#markRevoked(
      keys.account(alert.account),
      listingSort(alert, tokenId),
      alertId,
    );
    return lookupRevoked || listingRevoked;
  }

  /** True if written; false if the item exists (it is left as it is). */
  #putNew(pk: string, sk: string, fields: Record<string, unknown>): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: { pk, sk, ...fields },
          ConditionExpression: "attribute_not_exists(pk)",
        }),
      ),
    );
  }

  #markRevoked(pk: string, sk: string, alertId: string): Promise<boolean> {
    return conditionally(() =>
      this.table.documents.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: { pk, sk },
          UpdateExpression: "SET revoked = :revoked",
          // The alert condition keeps one alert's command from ending another alert's link.
          ConditionExpression: "attribute_exists(pk) AND alertId = :alertId",
          ExpressionAttributeValues: { ":revoked": true, ":alertId": alertId },
        }),
      ),
    );
  }
}

function listingSort(alert: AlertRef, tokenId: string): string {
  return `${keys.shareListingPrefix(alert.serialno, alert.ruleId)}${tokenId}`;
}

function sameHash(stored: string, presented: string): boolean {
  const a = Buffer.from(stored, "hex");
  const b = Buffer.from(presented, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
