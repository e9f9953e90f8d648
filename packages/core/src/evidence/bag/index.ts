export * from "./bag-info.js";
export * from "./manifest-lines.js";
