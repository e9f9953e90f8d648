export * from "./env.js";
export * from "./fields.js";
export * from "./json-file.js";
export * from "./notices-config.js";
export * from "./poller-config.js";
export * from "./recorder-config.js";
export * from "./time-zone.js";
