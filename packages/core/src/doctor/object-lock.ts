import { type Check, fail, pass, settle, skip } from "./check.js";
import type { ObjectLockSettings } from "./ports.js";

/** The evidence bucket keeps what it stores unchanged: Object Lock on, with a default retention. */
export function checkObjectLock(bucket: string, settings: ObjectLockSettings): Promise<Check[]> {
  const name = "evidence bucket: Object Lock";
  return settle(
    name,
    async () => {
      const state = await settings.state(bucket);
      if ("unsupported" in state) return skip(name, `not checked: ${state.unsupported}`);
      if (!state.enabled)
        return fail(
          name,
          `off on ${bucket}: stored evidence can be changed or deleted`,
          "Object Lock can only be set when a bucket is made: deploy the stage's stack (infra/storage.ts makes " +
            "the bucket with it), and move the evidence into the new bucket",
        );
      const retention = state.days
        ? `${state.days} days`
        : state.years
          ? `${state.years} years`
          : "no default retention";
      return pass(name, `on for ${bucket} (${state.mode ?? "no mode"}, ${retention})`);
    },
    "check that this shell may read the bucket's settings (AWS credentials and region), then run doctor again",
  );
}
