export * from "./alert-id.js";
export * from "./audit-store.js";
export * from "./listing-page.js";
export * from "./ports.js";
export * from "./schemas.js";
export * from "./share-store.js";
export * from "./token.js";
