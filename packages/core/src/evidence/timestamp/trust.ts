import { Certificate, CertificateChainValidationEngine, ExtKeyUsage, id_ExtKeyUsage } from "pkijs";
import { webCryptoEngine } from "./crypto-engine.js";
import type { TimestampToken } from "./response.js";

const TIME_STAMPING = "1.3.6.1.5.5.7.3.8";

/**
 * Whether the token's signer may be trusted as a TSA of `trustedCaPem` (one or more PEM certificates):
 * its certificate chains to one of them (every signature up the chain verified, each certificate
 * valid at genTime) and is for time-stamping only, as RFC 3161 §2.3 requires.
 */
export async function trustProblems(
  token: TimestampToken,
  signer: Certificate | undefined,
  trustedCaPem: string,
): Promise<string[]> {
  const trusted = certificatesFromPem(trustedCaPem);
  if (trusted.length === 0) return ["the trusted CA holds no readable PEM certificate"];
  if (!signer) return ["the token carries no signer certificate to chain to the trusted CA"];
  const problems: string[] = [];
  const chained = await chainsToTrusted(signer, token, trusted);
  if (chained !== true) problems.push(`the signer certificate does not chain to the trusted CA: ${chained}`);
  const usage = timeStampingUsageProblem(signer);
  if (usage) problems.push(usage);
  return problems;
}

/** true, or what pkijs's chain validation says is wrong. */
async function chainsToTrusted(
  signer: Certificate,
  token: TimestampToken,
  trusted: Certificate[],
): Promise<true | string> {
  const engine = new CertificateChainValidationEngine({
    trustedCerts: trusted,
    // The engine validates the last certificate it is given: the signer, after the token's others.
    certs: [...token.certificates.filter((certificate) => certificate !== signer), signer],
    // A token stays valid after its TSA certificate expires: what counts is validity when it was made.
    checkDate: token.tstInfo.genTime,
  });
  try {
    const result = await engine.verify({}, webCryptoEngine);
    return result.result || result.resultMessage || "no valid certificate path";
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function timeStampingUsageProblem(signer: Certificate): string | undefined {
  const extension = signer.extensions?.find(({ extnID }) => extnID === id_ExtKeyUsage);
  const purposes = extension?.parsedValue instanceof ExtKeyUsage ? extension.parsedValue.keyPurposes : [];
  if (!extension || !purposes.includes(TIME_STAMPING)) {
    return "the signer certificate lacks extendedKeyUsage timeStamping";
  }
  if (!extension.critical) return "the signer certificate's extendedKeyUsage is not critical (RFC 3161 §2.3)";
  return undefined;
}

function certificatesFromPem(pem: string): Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.flatMap((block) => {
    const base64 = block.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, "");
    try {
      return [Certificate.fromBER(Buffer.from(base64, "base64"))];
    } catch {
      return [];
    }
  });
}
