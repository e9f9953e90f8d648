/**
 * PLACEHOLDER (issue 15): lets the stack synthesize and bundle until the real handler lands from
 * the parallel work on issue 15, which replaces this file whole.
 */
export async function handler(): Promise<never> {
  throw new Error("not wired yet: issue 15");
}
