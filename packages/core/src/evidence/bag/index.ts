export * from "./bag-info.js";
export * from "./bag-layout.js";
export type {
  TimestampCheck,
  TimestampChecker,
  TimestampIdentity,
  TokenCheckOutcome,
} from "./check-timestamp.js";
export * from "./folder-source.js";
export * from "./format.js";
export type { BagProblem, BagProblemKind } from "./inspection.js";
export * from "./manifest-lines.js";
export * from "./s3-source.js";
export * from "./source.js";
export * from "./verify.js";
