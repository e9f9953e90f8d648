import { type Check, fail, pass, settle } from "./check.js";
import type { Schedules } from "./ports.js";

/** Every schedule of the stage is enabled: a disabled one stops an account's polls (or an audit) silently. */
export function checkSchedules(schedules: Schedules): Promise<Check[]> {
  const name = "schedules";
  return settle(
    name,
    async () => {
      const all = await schedules.list();
      const disabled = all.filter((schedule) => !schedule.enabled);
      if (all.length === 0)
        return fail(
          name,
          "the stage has no schedule",
          "deploy the stage again (npx sst deploy --stage <name>)",
        );
      if (disabled.length === 0)
        return pass(name, `${all.length} enabled: ${all.map((s) => s.name).join(", ")}`);
      return fail(
        name,
        `${disabled.length} of ${all.length} disabled: ${disabled.map((s) => s.name).join(", ")}`,
        disabled.map((schedule) => schedules.howToEnable(schedule.name)).join("; "),
      );
    },
    "check that this shell may read the stage's schedules (AWS credentials and region), then run doctor again",
  );
}
