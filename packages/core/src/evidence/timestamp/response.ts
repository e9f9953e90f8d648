import {
  Certificate,
  type ContentInfo,
  id_ContentType_SignedData,
  id_eContentType_TSTInfo,
  type PKIStatusInfo,
  SignedData,
  TimeStampResp,
  TSTInfo,
} from "pkijs";

/** The token of a TimeStampResp, taken apart: what was signed, and the certificates that came with it. */
export interface TimestampToken {
  /** The token's SignedData as ASN.1: pkijs objects are built from it afresh where a check needs its own. */
  signedDataSchema: ContentInfo["content"];
  tstInfo: TSTInfo;
  /** The X.509 certificates the token carries, in its order. */
  certificates: Certificate[];
}

const STATUS_NAMES = [
  "granted",
  "grantedWithMods",
  "rejection",
  "waiting",
  "revocationWarning",
  "revocationNotification",
];

/** PKIFailureInfo bits (RFC 3161 §2.4.2). */
const FAILURE_NAMES: Record<number, string> = {
  0: "badAlg (unrecognized or unsupported algorithm)",
  2: "badRequest (transaction not permitted or supported)",
  5: "badDataFormat (the data submitted has the wrong format)",
  14: "timeNotAvailable (the TSA's time source is not available)",
  15: "unacceptedPolicy (the requested TSA policy is not supported)",
  16: "unacceptedExtension (the requested extension is not supported)",
  17: "addInfoNotAvailable (the additional information requested is not available)",
  25: "systemFailure (the TSA failed)",
};

/** Status text is the TSA's free text: enough of it to explain, not a page. */
const MAX_STATUS_TEXT = 200;

/**
 * Reads a DER TimeStampResp down to its TSTInfo. Problems of the answer itself (not DER, refused,
 * no token, a token that is not a signed TSTInfo) are all listed; `token` is there when it could be read.
 */
export function readTimestampResponse(der: Uint8Array): { token?: TimestampToken; problems: string[] } {
  let response: TimeStampResp;
  try {
    response = TimeStampResp.fromBER(der);
  } catch {
    return { problems: ["the response is not a DER TimeStampResp"] };
  }
  const problems: string[] = [];
  const refusal = describeRefusal(response.status);
  if (refusal) problems.push(refusal);
  if (!response.timeStampToken) {
    if (!refusal) problems.push("the response grants a time-stamp but carries no token");
    return { problems };
  }
  const token = readToken(response.timeStampToken);
  if ("problem" in token) return { problems: [...problems, token.problem] };
  return { token, problems };
}

function readToken(contentInfo: ContentInfo): TimestampToken | { problem: string } {
  if (contentInfo.contentType !== id_ContentType_SignedData) {
    return { problem: `the token is not CMS SignedData but content type ${contentInfo.contentType}` };
  }
  let signedData: SignedData;
  try {
    signedData = new SignedData({ schema: contentInfo.content });
  } catch {
    return { problem: "the token's SignedData cannot be read" };
  }
  const { eContentType, eContent } = signedData.encapContentInfo;
  if (eContentType !== id_eContentType_TSTInfo || !eContent) {
    return { problem: `the token does not sign a TSTInfo but content type ${eContentType}` };
  }
  if (signedData.signerInfos.length !== 1) {
    return { problem: `the token has ${signedData.signerInfos.length} signers, not the one RFC 3161 allows` };
  }
  let tstInfo: TSTInfo;
  try {
    tstInfo = TSTInfo.fromBER(eContent.getValue());
  } catch {
    return { problem: "the token's TSTInfo cannot be read" };
  }
  const certificates = (signedData.certificates ?? []).filter(
    (certificate): certificate is Certificate => certificate instanceof Certificate,
  );
  return { signedDataSchema: contentInfo.content, tstInfo, certificates };
}

/** Why the status is not granted/grantedWithMods, or undefined when it is. */
function describeRefusal(statusInfo: PKIStatusInfo): string | undefined {
  if (statusInfo.status === 0 || statusInfo.status === 1) return undefined;
  const status = STATUS_NAMES[statusInfo.status] ?? `unknown status ${statusInfo.status}`;
  const failures = failureBits(statusInfo).map((bit) => FAILURE_NAMES[bit] ?? `failure bit ${bit}`);
  const texts = (statusInfo.statusStrings ?? []).map(
    (text) => `"${text.valueBlock.value.slice(0, MAX_STATUS_TEXT)}"`,
  );
  return [`the TSA did not grant a time-stamp: status ${status}`, ...failures, ...texts].join("; ");
}

/** The set bits of PKIFailureInfo, bit 0 being the first byte's most significant. */
function failureBits(statusInfo: PKIStatusInfo): number[] {
  const bytes = statusInfo.failInfo?.valueBlock.valueHexView ?? new Uint8Array();
  const bits: number[] = [];
  for (let bit = 0; bit < bytes.length * 8; bit++) {
    if (((bytes[bit >> 3] ?? 0) & (0x80 >> (bit & 7))) !== 0) bits.push(bit);
  }
  return bits;
}
