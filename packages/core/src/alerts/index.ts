export * from "./alert-store.js";
export * from "./delivery.js";
export {
  type AlertContext,
  type AlertMessage,
  buildAlertMessage,
  isTimeZone,
  type SnsMessageAttribute,
  timeZoneSchema,
} from "./message.js";
export * from "./sns-publisher.js";
