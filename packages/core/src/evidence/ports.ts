import type { Readable } from "node:stream";
import type { EvidenceJob } from "./job.js";
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

/** An evidence job kept while its device is offline (parked-store.ts), with what its wait is measured by. */
export interface ParkedJob {
  job: EvidenceJob;
  parkedAtMs: number;
  /** When the job first found its device offline (not in the online list): offline since then at least. */
  offlineSinceMs: number;
  /** The footage deadline (waiting.ts): past it, the job is given up as overwritten. */
  keptUntilMs: number;
  retentionDays: number | null;
  /** The "footage at risk" notice went (or there was nobody to tell): the sweep does not try again. */
  atRiskNoticeSent: boolean;
}

/** Parked evidence jobs, by account and device. */
export interface ParkedEvidence {
  /**
   * Keeps the job until its device comes online. A job parked already (a duplicate delivery) keeps
   * its first item, and its offline-since: the item as stored is returned.
   */
  park(parked: Omit<ParkedJob, "atRiskNoticeSent">): Promise<ParkedJob>;
  /** Whether the account has any job parked: one read of one item at most. */
  anyOf(account: string): Promise<boolean>;
  /** A device's parked jobs, a page at a time. */
  ofDevice(account: string, deviceid: string): AsyncIterable<ParkedJob[]>;
  /** Every parked job of an account, a page at a time. */
  ofAccount(account: string): AsyncIterable<ParkedJob[]>;
  /** Done with: woken (sent back to the evidence queue) or given up. Nothing if it is gone already. */
  remove(parked: ParkedJob): Promise<void>;
  /** Nothing if the job is gone meanwhile (woken or given up). */
  markAtRiskNoticeSent(parked: ParkedJob): Promise<void>;
}
