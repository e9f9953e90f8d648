import * as asn1js from "asn1js";
import { AlgorithmIdentifier, id_sha256, MessageImprint, TimeStampReq } from "pkijs";

export interface TimestampQuery {
  /** The DER TimeStampReq, the body of the POST. */
  der: Uint8Array;
  /** The nonce the TSA must echo: it ties the answer to this query (no replayed token passes). */
  nonce: bigint;
}

/** An RFC 3161 TimeStampReq over a SHA-256 digest: version 1, a random 64-bit nonce, certReq (the token carries the TSA's certificates). */
export function timestampQuery(sha256: Uint8Array, policy?: string): TimestampQuery {
  const nonce = new DataView(globalThis.crypto.getRandomValues(new Uint8Array(8)).buffer).getBigUint64(0);
  const request = new TimeStampReq({
    version: 1,
    messageImprint: new MessageImprint({
      hashAlgorithm: new AlgorithmIdentifier({ algorithmId: id_sha256, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: sha256 }),
    }),
    ...(policy ? { reqPolicy: policy } : {}),
    nonce: asn1js.Integer.fromBigInt(nonce),
    certReq: true,
  });
  return { der: new Uint8Array(request.toSchema().toBER()), nonce };
}
