export * from "./sqs-sender.js";
