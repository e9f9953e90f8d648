import { PassThrough, Transform } from "node:stream";

const REDRAW_EVERY_MS = 100;

/**
 * A pass-through stream that shows bytes passed (of `totalBytes`, when known) on one line of
 * `output`, redrawn in place with `\r`. Only on a terminal: in a log file or a pipe the redraws
 * would be noise, so there it passes bytes on and shows nothing.
 */
export function progressMeter(
  totalBytes: number | undefined,
  output: Pick<NodeJS.WriteStream, "isTTY" | "write"> = process.stderr,
): Transform {
  if (!output.isTTY) return new PassThrough();
  let bytes = 0;
  let drawnAt = 0;
  let lineOpen = false;
  const draw = () => {
    const of = totalBytes ? ` / ${megabytes(totalBytes)} (${Math.floor((bytes / totalBytes) * 100)} %)` : "";
    // \x1b[K clears what a longer earlier line left to the right.
    output.write(`\r${megabytes(bytes)}${of}\x1b[K`);
    drawnAt = Date.now();
    lineOpen = true;
  };
  const endLine = () => {
    if (lineOpen) output.write("\n");
    lineOpen = false;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (Date.now() - drawnAt >= REDRAW_EVERY_MS) draw();
      callback(null, chunk);
    },
    flush(callback) {
      draw();
      endLine();
      callback();
    },
    // A failed download leaves the line ended, so that the error message starts on its own line.
    destroy(error, callback) {
      endLine();
      callback(error);
    },
  });
}

function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
