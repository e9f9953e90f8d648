import * as z from "zod";

/**
 * One finding of `fleet-alerts doctor`: what was checked, whether it is fine, what was seen, and for
 * a fault what to do. No field ever holds a secret: checks name secrets, never show them.
 */
export const checkSchema = z.object({
  name: z.string(),
  ok: z.boolean(),
  /** Not a finding: what this stage cannot be asked (the local mode's emulators have no Object Lock). */
  skipped: z.literal(true).optional(),
  detail: z.string(),
  remedy: z.string().optional(),
});
export type Check = z.output<typeof checkSchema>;

export const doctorReportSchema = z.object({
  stage: z.string(),
  /** False as soon as one check failed: the command's exit code is 1. */
  ok: z.boolean(),
  checks: z.array(checkSchema),
});
export type DoctorReport = z.output<typeof doctorReportSchema>;

export const pass = (name: string, detail: string): Check => ({ name, ok: true, detail });

export const fail = (name: string, detail: string, remedy: string): Check => ({
  name,
  ok: false,
  detail,
  remedy,
});

export const skip = (name: string, detail: string): Check => ({ name, ok: true, skipped: true, detail });

/**
 * `work`'s checks, or one failed check named `name` when it throws: a check that cannot be made
 * (an API refused, a time-out) is a fault of its own and never stops the others.
 */
export async function settle(
  name: string,
  work: () => Promise<Check | Check[]>,
  remedy: string,
): Promise<Check[]> {
  try {
    return [await work()].flat();
  } catch (error) {
    return [fail(name, `could not check: ${error instanceof Error ? error.message : String(error)}`, remedy)];
  }
}

/** `ms` as an operator reads a lag: seconds below two minutes, then minutes, hours, days. */
export function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 7_200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172_800) return `${Math.round(seconds / 3_600)} h`;
  return `${Math.round(seconds / 86_400)} days`;
}
