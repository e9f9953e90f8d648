import type { Readable } from "node:stream";
import type { CurrentManifest, EvidenceManifest } from "./manifest.js";

export interface StoredObject {
  bytes: number;
  sha256Hex: string;
  /** The version written, where the store keeps versions. */
  versionId?: string;
}

export interface StoredClip {
  bytes: number;
  sha256Hex: string;
  durationMs?: number;
  /** When its download was asked for, from the metadata written with it (the chain of custody). */
  requestedAt?: string;
}

/** A manifest as read, with the digest of its stored bytes (the claim pack's tag manifest lists them). */
export interface ReadManifest {
  manifest: EvidenceManifest;
  stored: StoredObject;
}

/** Where evidence goes: clips verified on the way in, small documents beside them, the manifest last. */
export interface EvidenceSink {
  readManifest(key: string): Promise<ReadManifest | undefined>;
  /** A small document whole (a claim pack's tag manifest, the track), or undefined when there is none. */
  readObject(key: string): Promise<Uint8Array | undefined>;
  /** A clip already stored (a crash after it was stored), as its metadata describes it. */
  storedClip(key: string): Promise<StoredClip | undefined>;
  /** Streams `body` in at `key`, verified on the way; nothing is kept if it fails (the error is rethrown). */
  storeClip(
    key: string,
    body: Readable,
    metadata: Record<string, string>,
    onProgress?: (bytes: number) => void,
  ): Promise<StoredClip>;
  /** A small document held whole (the GPS track, a bag's tag file), put at `key` over any earlier one; digest and size of these bytes. */
  putObject(key: string, body: string | Uint8Array, contentType: string): Promise<StoredObject>;
  putManifest(key: string, manifest: CurrentManifest): Promise<StoredObject>;
}
