/** V8's `gc`, on the global object when Node runs with `--expose-gc` (the evidence function does). */
export type ExposedGc = (options?: { type: "minor" }) => void;

const MIB = 1024 * 1024;
/** A young-generation collection after each this many bytes downloaded. */
export const MINOR_GC_EVERY_BYTES = MIB;
/** A full collection after each this many. */
export const FULL_GC_EVERY_BYTES = 128 * MIB;

/**
 * Collects a download's garbage at the pace its bytes arrive. Each socket read is a new buffer of
 * up to 64 KiB outside the V8 heap, freed only once its small JS wrapper is collected; V8 paces its
 * collections by heap growth, which a stream of such buffers barely causes, so tens of MiB of dead
 * buffers, and the old-generation garbage of the stream machinery, waited for collections that came
 * late. A young-generation collection every MiB and a full one every 128 MiB keep the evidence
 * function's memory flat (`npm run bench`, five 30-minute clips, twice: peak RSS 91-94 MiB against
 * 103-133 without, at 93-95% of the S3 half's throughput; docs/PERFORMANCE.md). Without
 * `--expose-gc` (tests, the local mode) it does nothing.
 */
export function gcPacer(
  gc: ExposedGc | undefined = (globalThis as { gc?: ExposedGc }).gc,
): (bytes: number) => void {
  let received = 0;
  return (bytes) => {
    if (gc === undefined) return;
    const before = received;
    received += bytes;
    if (crossed(before, received, FULL_GC_EVERY_BYTES)) gc();
    else if (crossed(before, received, MINOR_GC_EVERY_BYTES)) gc({ type: "minor" });
  };
}

/** Whether going from `before` to `after` passed a multiple of `step`. */
function crossed(before: number, after: number, step: number): boolean {
  return Math.floor(after / step) > Math.floor(before / step);
}
