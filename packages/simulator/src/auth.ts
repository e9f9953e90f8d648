/** API accounts: requests carry the uppercase hex SHA-256 of the password, never the password. */
import { createHash, timingSafeEqual } from "node:crypto";
import { HttpError } from "./http.js";
import type { Account } from "./options.js";

export function passwordDigest(plainPassword: string): string {
  return createHash("sha256").update(plainPassword, "utf8").digest("hex").toUpperCase();
}

export class Accounts {
  private readonly digests: ReadonlyMap<string, { account: Account; digest: Buffer }>;

  constructor(accounts: readonly Account[]) {
    this.digests = new Map(
      accounts.map((account) => [
        account.username,
        { account, digest: Buffer.from(passwordDigest(account.password)) },
      ]),
    );
  }

  /**
   * The account for these credentials, or 401. Only the exact uppercase digest matches: a
   * lowercase digest or the plain password is a wrong credential, as the spec allows nothing else.
   */
  authenticate(username: string, passwordHash: string): Account {
    const entry = this.digests.get(username);
    const given = Buffer.from(passwordHash);
    if (!entry || given.length !== entry.digest.length || !timingSafeEqual(given, entry.digest)) {
      throw new HttpError(401, "invalid_credentials", "unknown username or wrong password");
    }
    return entry.account;
  }

  requireAdmin(account: Account): void {
    if (!account.admin)
      throw new HttpError(403, "admin_only", "this endpoint is restricted to administrator accounts");
  }
}
