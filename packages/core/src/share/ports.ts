import type { AccessToRecord } from "./audit-store.js";
import type { ListingPage, ListingPageRequest } from "./listing-page.js";
import type { AuditEntry, ShareGrant, ShareListing } from "./schemas.js";
import type { CreatedShare, NewShareGrant } from "./share-store.js";

/** Share links, as the incident page, the alert messages and the CLI use them. */
export interface ShareLinks {
  create(grant: NewShareGrant, nowMs: number): Promise<CreatedShare>;
  /** The grant of a given token, written once; a repeat returns it as first written. */
  createWithToken(grant: NewShareGrant, token: string, nowMs: number): Promise<CreatedShare>;
  /** The grant of a live link; undefined alike for unknown, malformed, expired and revoked tokens. */
  resolve(token: string, nowMs: number): Promise<ShareGrant | undefined>;
  /** A page of the alert's live links. */
  list(alertId: string, nowMs: number, page: ListingPageRequest): Promise<ListingPage<ShareListing>>;
  revoke(alertId: string, tokenId: string): Promise<boolean>;
}

/** The record of who opened what through a share link. */
export interface AccessRecords {
  record(access: AccessToRecord): Promise<void>;
  /** A page of the alert's accesses, oldest first. */
  list(alertId: string, page: ListingPageRequest): Promise<ListingPage<AuditEntry>>;
}
