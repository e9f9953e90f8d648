import { createHash } from "node:crypto";
import type { Certificate } from "pkijs";
import { formatDistinguishedName } from "./distinguished-name.js";
import type { CertificateFacts } from "./facts.js";

/** A certificate as the claim report shows it. */
export function certificateFacts(certificate: Certificate): CertificateFacts {
  return {
    subject: formatDistinguishedName(certificate.subject),
    issuer: formatDistinguishedName(certificate.issuer),
    notBefore: certificate.notBefore.value.toISOString(),
    notAfter: certificate.notAfter.value.toISOString(),
    serialNumber: unsignedHex(certificate.serialNumber.valueBlock.valueHexView),
    // DER in, DER out: pkijs re-encodes what it parsed to the same bytes openssl fingerprints.
    sha256Fingerprint: createHash("sha256")
      .update(new Uint8Array(certificate.toSchema().toBER()))
      .digest("hex"),
  };
}

/**
 * An INTEGER's content octets as lower-case hex, without the sign byte DER adds before a high bit
 * (openssl prints serial numbers the same way, in upper case).
 */
export function unsignedHex(octets: Uint8Array): string {
  let start = 0;
  while (start < octets.length - 1 && octets[start] === 0) start++;
  return Buffer.from(octets.subarray(start)).toString("hex");
}
