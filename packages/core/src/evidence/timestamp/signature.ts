import { type Certificate, id_ContentType_Data, SignedData, SignedDataVerifyError } from "pkijs";
import { isSameCertificate } from "./certificate-chain.js";
import { webCryptoEngine } from "./crypto-engine.js";
import type { TimestampToken } from "./response.js";

/** The token's signer certificate (when it carries one), and why the signature fails (when it does). */
export interface SignatureCheck {
  signer?: Certificate;
  problem?: string;
}

/** Checks the token's CMS signature with the signer certificate the token carries. */
export async function checkTokenSignature(token: TimestampToken): Promise<SignatureCheck> {
  // pkijs's verify() treats a TSTInfo specially: it first compares the token's imprint with detached
  // data and stops there on a mismatch, before the signature. The imprint is checked (and reported)
  // on its own, so a SignedData of its own, marked as plain data, has its signature checked over the
  // eContent bytes as they are: both problems are reported, not the first only.
  const signedData = new SignedData({ schema: token.signedDataSchema });
  signedData.encapContentInfo.eContentType = id_ContentType_Data;
  try {
    const result = await signedData.verify({ signer: 0, extendedMode: true }, webCryptoEngine);
    const signer = tokenCertificate(token, result.signerCertificate);
    if (result.signatureVerified) return { signer };
    return { signer, problem: "the token's signature does not verify with its signer certificate" };
  } catch (error) {
    const signer = tokenCertificate(
      token,
      error instanceof SignedDataVerifyError ? error.signerCertificate : null,
    );
    const detail = error instanceof Error ? error.message : String(error);
    return { signer, problem: `the token's signature cannot be verified: ${detail}` };
  }
}

/** The token's own object for the certificate pkijs found (pkijs parsed a copy): the chain checks compare by identity. */
function tokenCertificate(
  token: TimestampToken,
  found: Certificate | null | undefined,
): Certificate | undefined {
  return found ? token.certificates.find((certificate) => isSameCertificate(certificate, found)) : undefined;
}
