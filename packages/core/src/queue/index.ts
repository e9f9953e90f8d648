export * from "./ports.js";
export * from "./sqs-sender.js";
