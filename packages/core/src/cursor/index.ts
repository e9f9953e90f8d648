export * from "./account-lock.js";
export * from "./cursor-store.js";
export * from "./ports.js";
