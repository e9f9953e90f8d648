export * from "./config.js";
export * from "./deliver.js";
export * from "./delivery-store.js";
export * from "./job.js";
export * from "./payloads/index.js";
export * from "./signature.js";
export * from "./target-url.js";
