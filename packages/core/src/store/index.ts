export * from "./dynamo.js";
export * from "./keys.js";
