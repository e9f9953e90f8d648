/**
 * One latency measurement (latency.ts) in a process of its own: the modes run side by side, and a
 * pipeline's burst of work (a minute's alerts at once) must not hold up another's event loop. Given
 * its LatencyOptions as JSON in argv, it sends its LatencyFigures over the IPC channel of `fork()`.
 * With `pollerMemoryMb`, the pipeline's poll handler runs at that memory's CPU share, as in Lambda
 * (throttled-poll-hooks.mjs swaps its module for throttled-poll.ts).
 */
import { register } from "node:module";
import type { LatencyOptions } from "./latency.js";

const options = JSON.parse(process.argv[2] ?? "{}") as LatencyOptions;
if (options.pollerMemoryMb !== undefined) {
  register("./throttled-poll-hooks.mjs", import.meta.url);
  const { throttlePoller } = await import("./throttled-poll.js");
  throttlePoller(options.pollerMemoryMb);
}
const { measureLatency } = await import("./latency.js");
const figures = await measureLatency(options);
process.send?.(figures, () => process.exit(0));
