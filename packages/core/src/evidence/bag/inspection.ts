import { createHash } from "node:crypto";
import type { BagSource } from "./source.js";

export type BagProblemKind =
  /** A file the bag must have, or one a manifest lists, is not there. */
  | "missing-file"
  /** A file is there that a manifest should list and does not. */
  | "unlisted-file"
  /** A file is where a claim pack has none (the root, or a folder other than data/). */
  | "unexpected-file"
  | "hash-mismatch"
  | "oxum-mismatch"
  /** A tag file that cannot be read as what it should be. */
  | "malformed"
  /** A file the source lists but could not deliver (a damaged zip entry, a read error). */
  | "unreadable"
  | "timestamp";

/** One thing wrong with a bag. `path` is the file it is about, relative to the bag root. */
export interface BagProblem {
  kind: BagProblemKind;
  path?: string;
  detail: string;
}

// Tag files are read whole; no honest one comes near this, and a file that does must not exhaust memory.
export const MAX_TAG_FILE_BYTES = 16 * 1024 * 1024;

/** A bag under inspection: its files, and the problems found so far. */
export class Inspection {
  readonly problems: BagProblem[] = [];
  readonly #sizes: Map<string, number>;

  constructor(readonly source: BagSource) {
    this.#sizes = new Map(source.files.map((file) => [file.path, file.size]));
  }

  has(path: string): boolean {
    return this.#sizes.has(path);
  }

  report(problem: BagProblem): void {
    this.problems.push(problem);
  }

  /** Whether a problem of this kind about this file is already reported (two checks may see one missing file). */
  hasReported(kind: BagProblemKind, path: string): boolean {
    return this.problems.some((problem) => problem.kind === kind && problem.path === path);
  }

  /**
   * A tag file as text; undefined when it cannot be had. A missing file is left to the caller (the
   * layout check names each missing file once); the other reasons are reported here.
   */
  async text(path: string): Promise<string | undefined> {
    const bytes = await this.bytes(path);
    if (bytes === undefined) return undefined;
    try {
      return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
    } catch {
      this.report({ kind: "malformed", path, detail: "is not UTF-8 text" });
      return undefined;
    }
  }

  /** A small file whole; undefined as for `text`. */
  async bytes(path: string): Promise<Uint8Array | undefined> {
    const size = this.#sizes.get(path);
    if (size === undefined) return undefined;
    if (size > MAX_TAG_FILE_BYTES) {
      this.report({ kind: "malformed", path, detail: `is ${size} bytes: far more than a tag file holds` });
      return undefined;
    }
    try {
      return await this.source.read(path);
    } catch (error) {
      this.report({ kind: "unreadable", path, detail: messageOf(error) });
      return undefined;
    }
  }

  /** The file's SHA-256, lower-case hex, read as a stream; undefined (reported) when it cannot be read. */
  async sha256(path: string): Promise<string | undefined> {
    const hash = createHash("sha256");
    try {
      for await (const chunk of await this.source.open(path)) hash.update(chunk as Buffer);
      return hash.digest("hex");
    } catch (error) {
      this.report({ kind: "unreadable", path, detail: messageOf(error) });
      return undefined;
    }
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
