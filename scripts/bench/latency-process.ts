/**
 * One latency measurement (latency.ts) in a process of its own: the modes run side by side, and a
 * pipeline's burst of work (a minute's alerts at once) must not hold up another's event loop. Given
 * its LatencyOptions as JSON in argv, it sends its LatencyFigures over the IPC channel of `fork()`.
 */
import { type LatencyOptions, measureLatency } from "./latency.js";

const figures = await measureLatency(JSON.parse(process.argv[2] ?? "{}") as LatencyOptions);
process.send?.(figures, () => process.exit(0));
