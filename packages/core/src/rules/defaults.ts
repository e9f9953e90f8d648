import { type Rule, type RulesFileInput, rulesFileSchema } from "./schema.js";

const SIX_HOURS = 6 * 3600;

// Written in the rules-file form and parsed below, so that the defaults pass the same validation as
// a user's file (a mistake here fails at module load, and in the tests).
const defaultRulesFile = {
  rules: [
    {
      id: "overspeed",
      description: "Vehicle over the configured speed limit",
      events: ["OverSpeed"],
      severity: "warning",
      cooldownSeconds: 300,
      staleAfterSeconds: SIX_HOURS,
      evidence: { channels: [1], secondsBefore: 30, secondsAfter: 30 },
    },
    {
      id: "gsensor",
      description: "G-sensor triggered: harsh braking, impact or collision",
      events: ["GSensor"],
      severity: "critical",
      cooldownSeconds: 60,
      staleAfterSeconds: SIX_HOURS,
      evidence: { channels: [1, 2], secondsBefore: 15, secondsAfter: 15 },
      // A possible collision must reach someone: unacknowledged after 10 minutes, the on-call
      // level hears of it, after 20 the level above (the stage's `escalation.levels`).
      escalate: { after: "10m", levels: 2 },
    },
    {
      id: "offline",
      description: "Device offline for 10 minutes or more",
      events: ["Offline"],
      severity: "warning",
      offlineForMinutes: 10,
      cooldownSeconds: 1800,
      staleAfterSeconds: SIX_HOURS,
    },
    {
      id: "disk-error",
      description: "Recorder storage failure: footage may not be recorded",
      events: ["DiskError"],
      severity: "critical",
      cooldownSeconds: 3600,
      staleAfterSeconds: SIX_HOURS,
    },
    {
      id: "video-loss",
      description: "Camera signal lost: a channel is not recording video",
      events: ["VideoLoss"],
      severity: "warning",
      // A loose connector drops and finds the signal again many times an hour: one alert per
      // device an hour is enough to send someone to look at it.
      cooldownSeconds: 3600,
      staleAfterSeconds: SIX_HOURS,
    },
    {
      id: "lost-record-cover",
      description: "Recordings overwritten or lost on the SD card: footage may be missing",
      events: ["Lost Record Cover"],
      severity: "warning",
      // A full or failing card reports it on every overwrite; what matters is that it happens.
      cooldownSeconds: SIX_HOURS,
      staleAfterSeconds: SIX_HOURS,
    },
  ],
} satisfies RulesFileInput;

/** The rules used when no rules file is given. */
export const DEFAULT_RULES: readonly Rule[] = Object.freeze(rulesFileSchema.parse(defaultRulesFile).rules);
