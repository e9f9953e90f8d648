import type { ClaimReportModel, FootageRequest } from "@fleet-alerts/core/evidence";
import type { ReportTrackPoint } from "@fleet-alerts/core/evidence/report";
import type { AccessAction } from "@fleet-alerts/core/share";

/**
 * The ports the incident app is written against; the share-link store, the acknowledgement and the
 * evidence adapters are built beside their domains and passed in (`createIncidentApp`).
 */

/** What a live share link lets its holder do, for one alert only. */
export interface ShareGrant {
  alertId: string;
  account: string;
  serialno: bigint;
  ruleId: string;
  scope: "view" | "view+ack";
  expiresAtMs: number;
  /** Names the link in the audit and the logs: the token itself is never written anywhere. */
  tokenId: string;
}

/** The alert a grant is for: the alert record's key. */
export type AlertRef = Pick<ShareGrant, "alertId" | "account" | "serialno" | "ruleId">;

export interface ShareStore {
  /** Undefined for every token that grants nothing (unknown, malformed, expired, revoked) alike. */
  resolve(token: string, nowMs: number): Promise<ShareGrant | undefined>;
}

export interface Acknowledgement {
  by: string;
  note?: string;
  tokenId?: string;
  atMs: number;
}

export type AcknowledgeResult =
  | { recorded: true }
  | { recorded: false; existing: { by: string; atMs: number } };

export interface Acknowledgements {
  /** Records the first acknowledgement only; a later one is told who was first. */
  acknowledge(alert: AlertRef, acknowledgement: Acknowledgement): Promise<AcknowledgeResult>;
}

// One set of action names, the audit store's: what the page records is what `fleet-alerts audit` lists.
export type { AccessAction };

export interface AccessRecord {
  alertId: string;
  tokenId: string;
  action: AccessAction;
  userAgent: string;
  atMs: number;
}

export interface AccessAudit {
  recordAccess(access: AccessRecord): Promise<void>;
}

export interface EvidenceLinks {
  /** A presigned S3 GET of one object of this alert's evidence, valid for at most 15 minutes. */
  presignClip(alert: AlertRef, key: string): Promise<string>;
  /** The alert's claim pack as one zip: none while its evidence is not settled, else built or not yet. */
  claimPack(alert: AlertRef): Promise<ClaimPackZip>;
  /** Asks for the zip to be built (a job on the evidence queue); asking twice builds one. */
  requestClaimPack(alert: AlertRef): Promise<void>;
}

export type ClaimPackZip =
  | { status: "none" }
  | { status: "not-built" }
  /** A presigned GET (at most 15 minutes) that downloads it as `<bag folder>.zip`. */
  | { status: "ready"; url: string };

/** One stored clip as the alert's manifest lists it: the only keys the app ever presigns. */
export interface IncidentClip {
  key: string;
  channel: number;
  part: number;
  startMs: number;
  endMs: number;
  sha256: string;
  bytes: number;
}

export type IncidentEvidence =
  | { status: "pending" }
  /** Parked until the vehicle comes online (core's evidence/park.ts). */
  | { status: "waiting"; offlineSinceMs: number; keptUntilMs: number; retentionDays: number | null }
  /** The alert's rule asks for no video (Offline, Disk error by default). */
  | { status: "not-requested" }
  | { status: "stored"; clips: IncidentClip[]; storedAtMs: number }
  | { status: "unavailable"; reason: string };

/** Everything the incident page shows of one alert, read from its record, manifest and track. */
export interface Incident
  extends Pick<ClaimReportModel, "fleetTimeZone" | "position" | "speedAtEventKmh" | "speedLimitKmh"> {
  /**
   * The report's event without its code. The serial number is the one identifier the device cloud
   * and the claim pack both know the event by: whoever calls about it quotes it.
   */
  event: Pick<ClaimReportModel["event"], "name" | "serialno" | "eventMs" | "deviceid" | "vehicle" | "driver">;
  /** The evidence window the track and chart cover, once evidence is stored. */
  window?: { startMs: number; endMs: number };
  track: ReportTrackPoint[];
  evidence: IncidentEvidence;
  publishedAtMs?: number;
  acknowledgement?: Acknowledgement;
  escalations: { level: number; atMs: number }[];
  /** Footage asked for by hand (no event raised it): who asked, why and when. */
  request?: FootageRequest;
}

export interface Incidents {
  load(alert: AlertRef): Promise<Incident | undefined>;
}

/** Log lines name links by `tokenId` only. */
export interface IncidentLogger {
  error(message: string, fields: Record<string, unknown>): void;
}

export interface IncidentAppDeps {
  shares: ShareStore;
  acknowledgements: Acknowledgements;
  audit: AccessAudit;
  evidence: EvidenceLinks;
  incidents: Incidents;
  logger: IncidentLogger;
  /** The app's public origin, e.g. `https://alerts.example.com`: the only origin an acknowledgement may come from. */
  publicOrigin: string;
  /** The origin presigned clip URLs point at (`media-src`), e.g. `https://bucket.s3.eu-west-1.amazonaws.com`. */
  mediaOrigin: string;
  /** Binds the acknowledgement form to its link (HMAC of the tokenId). */
  formSecret: string;
  now(): number;
}
