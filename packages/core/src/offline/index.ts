export * from "./check.js";
export * from "./confirm.js";
export * from "./offline-store.js";
export * from "./ports.js";
