export * from "./groups-schema.js";
export * from "./items.js";
export * from "./local-time.js";
export * from "./quiet-window.js";
export * from "./recipients.js";
export * from "./route.js";
