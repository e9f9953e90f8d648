import type { Rule } from "./schema.js";

/**
 * The recorder audit's rule (recorder/): a vehicle drove with its recorder keeping no video. No
 * device event raises it, so it is no rules file's: every account has it, groups select it by its
 * id like any rule (routing/validate.ts knows it), and its alerts go out as any alert does.
 */
export const NOT_RECORDING_RULE: Rule = Object.freeze({
  id: "not-recording",
  description: "Vehicle drove while its recorder kept no video (recorder audit)",
  enabled: true,
  // Matches no event: the audit raises it, never the poller.
  eventCodes: [],
  severity: "warning",
  // One alert per device and gap already: the audit finds each gap once.
  cooldownSeconds: 0,
});

/**
 * The `appdevid` of a not-recording alert's record. The device cloud's codes are never negative
 * (a rule's events accept only codes from 0), so no rule of a rules file can select it.
 */
export const NOT_RECORDING_EVENT_CODE = -1;

/** Rules every account has besides its file's. */
export const BUILT_IN_RULES: readonly Rule[] = Object.freeze([NOT_RECORDING_RULE]);
