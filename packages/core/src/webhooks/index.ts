export * from "./job.js";
export * from "./signature.js";
