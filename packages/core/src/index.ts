export * from "./devicecloud/index.js";
