import type { Readable } from "node:stream";

/** One file of a bag: its path relative to the bag root, with `/` between folders. */
export interface BagFile {
  path: string;
  size: number;
  /** When it was last written, where the source knows (a zip entry keeps it). */
  modified?: Date;
}

/**
 * Where a bag's files are read from: a folder, a zip, an S3 prefix. The files are listed when the
 * source is opened; `open` and `read` refuse any path that is not among them, so that a path taken
 * from a manifest can never reach outside the bag.
 */
export interface BagSource {
  /** Where the bag is, for messages: a folder, a zip file, an S3 location. */
  readonly location: string;
  /** Every file of the bag, sorted by path; folders are left out. */
  readonly files: readonly BagFile[];
  /** The file's bytes as a stream: payload files may be clips of hundreds of megabytes. */
  open(path: string): Promise<Readable>;
  /** The whole file, for the small tag files only. */
  read(path: string): Promise<Uint8Array>;
  /** Releases what the source holds open (a zip's file descriptor); files cannot be read after. */
  close(): Promise<void>;
}

/** The bag cannot be read at all (not a folder, not a zip, a link out of it): no file-by-file report is possible. */
export class BagSourceError extends Error {
  override readonly name = "BagSourceError";
}

/** Refuses a path the source did not list. */
export function listedFile(source: Pick<BagSource, "files" | "location">, path: string): BagFile {
  const file = source.files.find((candidate) => candidate.path === path);
  if (!file) throw new BagSourceError(`${path} is not a file of the bag at ${source.location}`);
  return file;
}

/** A stream's bytes, all of them: for the small files `read` serves. */
export async function readAll(stream: Readable): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Sorted by path, compared by code unit, as the manifests are sorted. */
export function byPath(a: BagFile, b: BagFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}
