export * from "./alert-store.js";
export * from "./delivery.js";
export {
  type AlertContext,
  type AlertMessage,
  buildAlertMessage,
  type SnsMessageAttribute,
} from "./message.js";
export * from "./new-record.js";
export * from "./ports.js";
export * from "./record.js";
export * from "./sns-publisher.js";
