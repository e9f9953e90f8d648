export * from "./alphabet.js";
export * from "./display.js";
export * from "./fit.js";
export * from "./fleet-clock.js";
export * from "./graphemes.js";
export * from "./terminal.js";
export * from "./words.js";
