/** A certificate in a time-stamp token, as the claim report shows it. */
export interface CertificateFacts {
  subject: string;
  issuer: string;
  notBefore: string;
  notAfter: string;
  /** Lower-case hex, without DER's sign byte. */
  serialNumber: string;
  /** SHA-256 of the certificate's DER, lower-case hex. */
  sha256Fingerprint: string;
}

/** What an RFC 3161 token says, read from its TSTInfo and its certificates. */
export interface TimestampFacts {
  /** The TSA's genTime, ISO 8601 UTC. */
  genTime: string;
  /** The TSA's name from TSTInfo, when it states one; else the signer certificate's subject (empty without either). */
  tsaName: string;
  /** The token's serial number, lower-case hex, without DER's sign byte. */
  serialNumber: string;
  policy: string;
  /** SHA-256 of the stamped data (the tag manifest), lower-case hex, as the token states it. */
  messageImprintSha256: string;
  /** Signer first, then its issuers as far as the token carries them. */
  chain: CertificateFacts[];
}

/** What `timestamp.html` says: a token, one on its way (retried), or none. */
export type TimestampState =
  | { status: "stamped"; facts: TimestampFacts }
  | { status: "pending"; reason: string; nextAttemptAt: string }
  | { status: "unavailable"; reason: string };
