/**
 * Event codes (`appdevid`) named by the spec's Events table. The service may send codes outside
 * this table; those are kept and named generically, never rejected.
 */
export const EVENT_CODES = {
  Online: 0,
  Reboot: 2,
  Offline: 3,
  GPIO0: 8,
  GPIO1: 9,
  GPIO2: 10,
  GPIO3: 11,
  DiskError: 12,
  OverSpeed: 13,
  Idle: 14,
  VideoLoss: 15,
  GSensor: 16,
  "Trigger in": 51,
  "Trigger Out": 52,
  "SD BackupNormal": 90,
  "SD Backupgsonsor": 91,
  "SD Backupgpio0": 92,
  "Lost Record Cover": 98,
} as const;

export type EventCodeName = keyof typeof EVENT_CODES;

const namesByCode = new Map<number, EventCodeName>(
  Object.entries(EVENT_CODES).map(([name, code]) => [code, name as EventCodeName]),
);

/** The spec's name of an event code, or `Unknown event <code>` for a code outside the table. */
export function eventCodeName(code: number): string {
  return namesByCode.get(code) ?? `Unknown event ${code}`;
}

/** True when the code is one the spec names. */
export function isKnownEventCode(code: number): boolean {
  return namesByCode.has(code);
}

/** The code for one of the spec's names, matched case-insensitively, or undefined. */
export function eventCodeFromName(name: string): number | undefined {
  const wanted = name.trim().toLowerCase();
  for (const [known, code] of Object.entries(EVENT_CODES)) {
    if (known.toLowerCase() === wanted) return code;
  }
  return undefined;
}
