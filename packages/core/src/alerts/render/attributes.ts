import type { AlertFacts } from "../facts.js";

export interface SnsMessageAttribute {
  DataType: "String" | "Number";
  StringValue: string;
}

/** String attributes from plain values, for the messages of the alerts topic. */
export function stringAttributes(values: Record<string, string>): Record<string, SnsMessageAttribute> {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, { DataType: "String", StringValue: value }]),
  );
}

/** The attributes that subscription filter policies use. */
export function renderAttributes(facts: AlertFacts): Record<string, SnsMessageAttribute> {
  return {
    ...stringAttributes({
      kind: "alert",
      alert_id: facts.alertId,
      account: facts.account,
      rule: facts.ruleId,
      severity: facts.severity,
      deviceid: facts.asSent.deviceid,
      position_source: facts.position?.source ?? "unknown",
    }),
    event_code: { DataType: "Number", StringValue: String(facts.eventCode) },
  };
}
