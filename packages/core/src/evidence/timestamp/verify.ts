import { createHash } from "node:crypto";
import { id_sha256, type TSTInfo } from "pkijs";
import type { TimestampFacts } from "./facts.js";
import { readTimestampResponse, type TimestampToken } from "./response.js";
import { checkTokenSignature } from "./signature.js";
import { timestampFacts } from "./token-facts.js";
import { trustProblems } from "./trust.js";

export interface TimestampInspection {
  token?: TimestampToken;
  facts?: TimestampFacts;
  problems: string[];
}

/** Checks a stored .tsr against the data it should cover; every problem, not the first only. */
export async function verifyTimestampResponse(
  response: Uint8Array,
  stampedData: Uint8Array,
  options: { trustedCaPem?: string } = {},
): Promise<{ facts?: TimestampFacts; problems: string[] }> {
  const { facts, problems } = await inspectTimestampResponse(response, stampedData, options.trustedCaPem);
  return facts ? { facts, problems } : { problems };
}

/**
 * verifyTimestampResponse, with the token kept for the checks only a requester can make (the nonce).
 * Never throws: a .tsr is untrusted input, and whatever pkijs throws on it is one more problem.
 */
export async function inspectTimestampResponse(
  response: Uint8Array,
  stampedData: Uint8Array,
  trustedCaPem?: string,
): Promise<TimestampInspection> {
  try {
    const { token, problems } = readTimestampResponse(response);
    if (!token) return { problems };
    problems.push(...imprintProblems(token.tstInfo, stampedData));
    const signature = await checkTokenSignature(token);
    if (signature.problem) problems.push(signature.problem);
    if (trustedCaPem !== undefined)
      problems.push(...(await trustProblems(token, signature.signer, trustedCaPem)));
    return { token, facts: timestampFacts(token, signature.signer), problems };
  } catch (error) {
    return {
      problems: [`the time-stamp cannot be checked: ${error instanceof Error ? error.message : error}`],
    };
  }
}

function imprintProblems(tstInfo: TSTInfo, stampedData: Uint8Array): string[] {
  const { hashAlgorithm, hashedMessage } = tstInfo.messageImprint;
  if (hashAlgorithm.algorithmId !== id_sha256) {
    return [`the token's message imprint is not SHA-256 but algorithm ${hashAlgorithm.algorithmId}`];
  }
  const stated = Buffer.from(hashedMessage.valueBlock.valueHexView).toString("hex");
  const actual = createHash("sha256").update(stampedData).digest("hex");
  if (stated === actual) return [];
  return [`the token's message imprint ${stated} is not the SHA-256 of the data, ${actual}`];
}
