export * from "./announcement.js";
export * from "./collect.js";
export * from "./job.js";
export * from "./layout.js";
export * from "./manifest.js";
export * from "./mp4-verifier.js";
export * from "./s3-evidence-store.js";
export * from "./window.js";
