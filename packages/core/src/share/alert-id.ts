import { alertIdOf } from "../alerts/record.js";

/** An alert's identity, as its id (`<account>:<serialno>:<ruleId>`, see alertIdOf) spells it. */
export interface AlertRef {
  account: string;
  serialno: bigint;
  ruleId: string;
}

/** Text that is not an alert id; its message quotes the text, which never holds a secret. */
export class InvalidAlertIdError extends Error {
  override readonly name = "InvalidAlertIdError";
  constructor(readonly text: string) {
    super(`not an alert id: ${JSON.stringify(text)} (expected <account>:<serialno>:<ruleId>)`);
  }
}

// Account and rule ids share one plain alphabet (no ':'), so the id splits one way only.
const ALERT_ID = /^([A-Za-z0-9][A-Za-z0-9_-]{0,63}):(\d{1,40}):([A-Za-z0-9][A-Za-z0-9_-]{0,63})$/;

/** The account, serial number and rule of an alert id; throws InvalidAlertIdError for anything else. */
export function parseAlertId(text: string): AlertRef {
  const match = ALERT_ID.exec(text);
  if (!match) throw new InvalidAlertIdError(text);
  const [, account = "", digits = "", ruleId = ""] = match;
  const serialno = BigInt(digits);
  // Leading zeros would name the same alert under a second spelling.
  if (alertIdOf(account, serialno, ruleId) !== text) throw new InvalidAlertIdError(text);
  return { account, serialno, ruleId };
}
