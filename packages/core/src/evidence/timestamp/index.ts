export type { CertificateFacts, TimestampFacts, TimestampState } from "./facts.js";
export { requestTimestamp, type TimestampOutcome, type TsaSettings } from "./request.js";
export { verifyTimestampResponse } from "./verify.js";
