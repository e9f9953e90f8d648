export * from "./signature.js";
