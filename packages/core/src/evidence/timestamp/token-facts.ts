import { type Certificate, type GeneralName, RelativeDistinguishedNames } from "pkijs";
import { signerChain } from "./certificate-chain.js";
import { certificateFacts, unsignedHex } from "./certificate-facts.js";
import { formatDistinguishedName } from "./distinguished-name.js";
import type { TimestampFacts } from "./facts.js";
import type { TimestampToken } from "./response.js";

/** GeneralName choices (RFC 5280) that are plain text. */
const TEXT_NAME_LABELS: Record<number, string> = { 1: "email", 2: "DNS", 6: "URI" };
const DIRECTORY_NAME = 4;

/**
 * What the token states, read from its TSTInfo and certificates. Facts are not findings: they are
 * read whether or not the token verifies, and say nothing of it.
 */
export function timestampFacts(token: TimestampToken, signer: Certificate | undefined): TimestampFacts {
  const { tstInfo } = token;
  // Without a signer there is no chain to follow: the certificates are shown as the token carries them.
  const chain = signer ? signerChain(signer, token.certificates) : token.certificates;
  return {
    genTime: tstInfo.genTime.toISOString(),
    // Empty when the token neither names its TSA nor carries the signer's certificate.
    tsaName:
      (tstInfo.tsa && generalName(tstInfo.tsa)) ?? (signer ? formatDistinguishedName(signer.subject) : ""),
    serialNumber: unsignedHex(tstInfo.serialNumber.valueBlock.valueHexView),
    policy: tstInfo.policy,
    messageImprintSha256: Buffer.from(tstInfo.messageImprint.hashedMessage.valueBlock.valueHexView).toString(
      "hex",
    ),
    chain: chain.map(certificateFacts),
  };
}

function generalName(name: GeneralName): string | undefined {
  if (name.type === DIRECTORY_NAME && name.value instanceof RelativeDistinguishedNames) {
    return formatDistinguishedName(name.value);
  }
  const label = TEXT_NAME_LABELS[name.type];
  return label && typeof name.value === "string" ? `${label}:${name.value}` : undefined;
}
