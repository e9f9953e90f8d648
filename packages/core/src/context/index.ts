export * from "./event-coordinates.js";
export * from "./geodesy.js";
export * from "./gps-history.js";
export * from "./gps-lookup.js";
export * from "./gps-track.js";
export * from "./incident-context.js";
export * from "./overspeed-memo.js";
export * from "./speed-unit.js";
