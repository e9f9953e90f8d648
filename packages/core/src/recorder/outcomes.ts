/**
 * Why a recorder audit run stopped: every device of every due period done; nothing was due; out of
 * its calls (`callsPerRun`) or time; another run moved the cursor (or is sending a device's alert);
 * or device after device failing (the device cloud is down: the next run takes them again).
 */
export const RECORDER_AUDIT_OUTCOMES = [
  "done",
  "idle",
  "budget",
  "deadline",
  "cursor-moved",
  "failing",
] as const;
export type RecorderAuditOutcome = (typeof RECORDER_AUDIT_OUTCOMES)[number];
