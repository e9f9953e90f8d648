export * from "./account-lock.js";
export * from "./cursor-store.js";
export * from "./fence.js";
export * from "./ports.js";
