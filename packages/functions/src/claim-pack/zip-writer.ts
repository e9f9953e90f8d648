import type { Readable } from "node:stream";
import type { BagSource } from "@fleet-alerts/core/evidence";
import { ZipFile } from "yazl";

/**
 * The bag as a zip stream, its files under `topFolder/`. yazl asks for a file's stream only when
 * the file before it is written: one file is open at a time, and none is held whole.
 */
export function zipBag(source: BagSource, topFolder: string): Readable {
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // yazl emits its errors (a file that could not be had, one whose size changed) on the ZipFile,
  // and pipes each file's stream without passing that stream's errors on: either ends the output
  // with the error, so that whatever reads the zip fails rather than waits.
  const fail = (error: Error) => output.destroy(error);
  zip.on("error", fail);
  for (const file of source.files) {
    const options = {
      size: file.size,
      ...(file.modified && { mtime: file.modified }),
      // Clips are compressed already: deflating them would cost time and save nothing.
      compress: !file.path.endsWith(".mp4"),
    };
    zip.addReadStreamLazy(`${topFolder}/${file.path}`, options, (callback) => {
      source.open(file.path).then((stream) => {
        stream.once("error", fail);
        callback(null, stream);
      }, fail);
    });
  }
  zip.end();
  return output;
}
