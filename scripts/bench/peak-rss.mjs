/**
 * The peak resident memory of this process alone, in bytes. Not getrusage's maxRSS
 * (`process.resourceUsage()`): on Linux it carries the spawning process's peak over into the child
 * (exec keeps the old address space's high-water mark), so a handler spawned by a 150 MiB bench
 * reported 150 MiB before it ran a line. /proc's VmHWM belongs to the process's own address space.
 * maxRSS only where there is no /proc.
 */
import { readFile } from "node:fs/promises";

export async function peakRssBytes() {
  const status = await readFile("/proc/self/status", "utf8").catch(() => "");
  const kilobytes = /^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1];
  return (kilobytes === undefined ? process.resourceUsage().maxRSS : Number(kilobytes)) * 1024;
}
