export * from "./defaults.js";
export * from "./describe.js";
export * from "./escalation-policy.js";
export * from "./evaluator.js";
export * from "./load.js";
export * from "./match.js";
export * from "./parse.js";
export * from "./schema.js";
