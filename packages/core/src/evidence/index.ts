export * from "./job.js";
