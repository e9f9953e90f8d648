export * from "./entry.js";
export * from "./notice.js";
export * from "./ports.js";
export * from "./set-aside.js";
export * from "./set-aside-store.js";
export * from "./sns-ops-channel.js";
