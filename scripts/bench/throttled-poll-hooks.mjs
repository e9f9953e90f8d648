/**
 * Module hooks (node:module `register`) for a latency mode's process: every import of the poll
 * handler's module gets throttled-poll.ts instead, which runs each invocation at the poller's CPU
 * share. The local pipeline builds its handlers itself; this is how the bench reaches the poller's
 * invocations without a hook in packages/local. Plain JavaScript: hooks load before tsx's loader
 * is in their chain.
 */
const POLL_MODULE = "@fleet-alerts/functions/poll";
const WRAPPER = new URL("./throttled-poll.ts", import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  // The wrapper itself imports the real module.
  if (specifier === POLL_MODULE && context.parentURL !== WRAPPER) return { url: WRAPPER, shortCircuit: true };
  return nextResolve(specifier, context);
}
