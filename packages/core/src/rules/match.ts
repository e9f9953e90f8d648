import type { Rule } from "./schema.js";

/** Whether a rule is enabled, names the event's code, and covers its device. */
export function ruleAppliesTo(rule: Rule, event: { appdevid: number; deviceid: string }): boolean {
  return (
    rule.enabled && rule.eventCodes.includes(event.appdevid) && coversDevice(rule.devices, event.deviceid)
  );
}

function coversDevice(devices: Rule["devices"], deviceid: string): boolean {
  if (devices === undefined) return true;
  return devices.ids.includes(deviceid) || devices.prefixes.some((prefix) => deviceid.startsWith(prefix));
}
