import type { Readable } from "node:stream";
import type { EvidenceManifest } from "./manifest.js";

export interface StoredClip {
  bytes: number;
  sha256Hex: string;
  durationMs?: number;
}

/** Where evidence goes: clips verified on the way in, and the manifest written last. */
export interface EvidenceSink {
  readManifest(key: string): Promise<EvidenceManifest | undefined>;
  /** A clip already stored (a crash after it was stored), as its metadata describes it. */
  storedClip(key: string): Promise<StoredClip | undefined>;
  /** Streams `body` in at `key`, verified on the way; nothing is kept if it fails (the error is rethrown). */
  storeClip(
    key: string,
    body: Readable,
    metadata: Record<string, string>,
    onProgress?: (bytes: number) => void,
  ): Promise<StoredClip>;
  putManifest(key: string, manifest: EvidenceManifest): Promise<void>;
}
