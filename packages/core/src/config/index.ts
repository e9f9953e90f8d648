export * from "./env.js";
export * from "./poller-config.js";
