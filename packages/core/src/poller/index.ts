export * from "./event-order.js";
export * from "./newest-serial.js";
export * from "./poll-account.js";
export * from "./ports.js";
export * from "./rejected-store.js";
export * from "./rule-state-store.js";
export * from "./run-pollers.js";
export * from "./state-key.js";
