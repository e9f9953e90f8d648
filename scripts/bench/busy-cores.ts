/**
 * Busy loops on every core, beside a measurement: the latency modes' second pass (issue 41). Polls
 * meet when one is held past its lease while the next takes the account over; on a quiet machine
 * the pipelines' processes wake on time, and a CPU taken by other work is what holds them. Each
 * loop is a child process of its own spinning on the CPU, one per core the machine offers
 * (`os.availableParallelism()`), at the bench's own priority.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { availableParallelism } from "node:os";

// The loop spins in slices of 50 ms and lets its event loop turn between them: it ends when its
// stdin closes, which the system does when the bench exits, even killed or crashed, so no loop
// outlives it. A loop that never yielded would never see its stdin close.
const SPIN = `process.stdin.on("end", () => process.exit(0)).resume();
const spin = () => {
  for (const until = Date.now() + 50; Date.now() < until; );
  setImmediate(spin);
};
spin();`;

/** Runs `work` with a busy loop on every core, started before it and stopped after it, whatever it does. */
export async function withBusyCores<T>(work: (loops: number) => Promise<T>): Promise<T> {
  const loops = Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ["--eval", SPIN], { stdio: ["pipe", "ignore", "inherit"] }),
  );
  try {
    await Promise.all(loops.map((loop) => once(loop, "spawn")));
    return await work(loops.length);
  } finally {
    await Promise.all(loops.map(stop));
  }
}

async function stop(loop: ChildProcess): Promise<void> {
  // A loop that never started (no pid) or has ended already has nothing to stop.
  if (loop.pid === undefined || loop.exitCode !== null || loop.signalCode !== null) return;
  const exited = once(loop, "exit");
  loop.kill();
  await exited;
}
