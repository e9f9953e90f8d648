export * from "./alphabet.js";
export * from "./fit.js";
export * from "./fleet-clock.js";
export * from "./words.js";
