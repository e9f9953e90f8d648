/**
 * backlog.ts's measureBacklog of the checkout this process runs in (its working directory): this
 * one's, or the baseline's worktree (backlog-baseline.ts), each run the same way. It sends its
 * BacklogFigures over the IPC channel of `fork()`.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { measureBacklog } from "./backlog.js";

// The checkout's own module, by path: this process's modules are this checkout's, and the
// baseline's backlog.ts must import the baseline's handlers (through its own node_modules).
const backlog = pathToFileURL(join(process.cwd(), "scripts/bench/backlog.ts")).href;
const measure = (await import(backlog)).measureBacklog as typeof measureBacklog;
const figures = await measure();
process.send?.(figures, () => process.exit(0));
