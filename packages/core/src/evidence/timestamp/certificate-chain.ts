import type { Certificate } from "pkijs";

/** The signer, then its issuer, its issuer's issuer, ... as far as `carried` holds them. */
export function signerChain(signer: Certificate, carried: Certificate[]): Certificate[] {
  const chain = [signer];
  for (let current = signer; !current.issuer.isEqual(current.subject); ) {
    const issuer = carried.find(
      (candidate) => !chain.includes(candidate) && candidate.subject.isEqual(current.issuer),
    );
    if (!issuer) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain;
}

/** The same certificate, byte for byte, whichever pkijs object holds it. */
export function isSameCertificate(one: Certificate, other: Certificate): boolean {
  return Buffer.from(one.toSchema().toBER()).equals(Buffer.from(other.toSchema().toBER()));
}
