import { type AlertBody, type AlertRecord, publishedBody } from "@fleet-alerts/core/alerts";
import {
  type ClaimPackManifest,
  claimReportModel,
  REQUESTED_FOOTAGE_NAME,
  type ReportAlertFacts,
  type TrackGeoJson,
} from "@fleet-alerts/core/evidence";
import { displayName } from "@fleet-alerts/core/text";
import type { Incident, IncidentEvidence } from "./ports.js";

/** An alert's stored evidence as read back: its custody record (v3), its prefix, its track if any. */
export interface StoredEvidence {
  manifest: ClaimPackManifest;
  prefix: string;
  track?: TrackGeoJson;
}

/**
 * The incident page's model of one alert (pure): the record's published message says who, where
 * and how fast; once evidence is stored, the claim pack's report model (the same one `report.html`
 * is drawn from) adds the window, the track and the position the track gives.
 */
export function incidentOf(
  record: AlertRecord,
  evidence: StoredEvidence | undefined,
  fleetTimeZone: string,
): Incident {
  const body = publishedBody(record);
  const report =
    evidence &&
    claimReportModel(
      reportFactsOf(record, body, evidence.manifest),
      evidence.manifest,
      evidence.track,
      evidence.prefix,
      {
        // Neither is shown on the page: the page draws its sections, not the report's custody part.
        sourceOrganization: "",
        fleetTimeZone,
        timestamped: false,
      },
    );
  const position = body?.position ?? report?.position;
  const speedAtEventKmh = body?.speedKmh ?? report?.speedAtEventKmh;
  // For people: on one line, cut; a name that shows as nothing is no name (text/display.ts).
  const vehicle = displayName(body?.vehicleid ?? report?.event.vehicle);
  const driver = displayName(body?.drivername ?? report?.event.driver);
  const { request } = record;
  return {
    event: {
      name: request
        ? REQUESTED_FOOTAGE_NAME
        : (body?.eventName ?? report?.event.name ?? `event ${record.appdevid}`),
      serialno: record.serialno.toString(),
      eventMs: Date.parse(record.eventtime),
      deviceid: record.deviceid,
      ...(vehicle && { vehicle }),
      ...(driver && { driver }),
    },
    fleetTimeZone,
    ...(position && { position: { lat: position.lat, lng: position.lng, source: position.source } }),
    ...(speedAtEventKmh != null && { speedAtEventKmh }),
    ...(body?.speedLimitKmh != null && { speedLimitKmh: body.speedLimitKmh }),
    ...(report && { window: report.window }),
    track: report?.track.status === "stored" ? report.track.points : [],
    evidence: evidenceOf(record, evidence, report?.missing ?? []),
    ...(record.publishedAt && { publishedAtMs: Date.parse(record.publishedAt) }),
    ...(record.acknowledgement && { acknowledgement: record.acknowledgement }),
    escalations: escalationsOf(record),
    ...(request && { request }),
  };
}

/** What the report model reads of the alert, from its record, its published body and its manifest. */
function reportFactsOf(
  record: AlertRecord,
  body: AlertBody | undefined,
  manifest: ClaimPackManifest,
): ReportAlertFacts {
  return {
    deviceid: record.deviceid,
    serialno: record.serialno.toString(),
    eventtime: record.eventtime,
    event: { ...manifest.event, appdevid: record.appdevid },
    ...(body && { alert: body }),
  };
}

function evidenceOf(
  record: AlertRecord,
  evidence: StoredEvidence | undefined,
  missing: string[],
): IncidentEvidence {
  if (record.evidenceStatus === "failed")
    return { status: "unavailable", reason: "the evidence could not be stored" };
  if (!evidence) {
    if (record.evidenceStatus === "waiting" && record.evidenceWaiting)
      return { status: "waiting", ...record.evidenceWaiting };
    return record.evidence ? { status: "pending" } : { status: "not-requested" };
  }
  const { manifest } = evidence;
  // A set given up on video is still stored (event, track, report): the page says why there is none.
  if (manifest.clips.length === 0)
    return { status: "unavailable", reason: missing[0] ?? "no video was recorded in the window" };
  return {
    status: "stored",
    storedAtMs: Date.parse(manifest.createdAt),
    clips: manifest.clips.map((clip) => ({
      key: clip.key,
      channel: clip.channel,
      part: clip.part,
      startMs: clip.startMs,
      endMs: clip.startMs + clip.durationMinutes * 60_000,
      sha256: clip.sha256,
      bytes: clip.bytes,
    })),
  };
}

/**
 * The levels sent. The record keeps the claim time of the highest level only; an earlier level is
 * shown at the time its policy made it due (publication + level × wait), which is when its job ran.
 */
function escalationsOf(record: AlertRecord): Incident["escalations"] {
  const published = record.publishedAt ? Date.parse(record.publishedAt) : undefined;
  const waitMs = (record.escalation?.afterSeconds ?? 0) * 1000;
  const levels: Incident["escalations"] = [];
  for (let level = 1; level <= record.escalationsSent; level++) {
    const atMs =
      level === record.escalatedLevels && record.escalationClaimedAtMs !== undefined
        ? record.escalationClaimedAtMs
        : (published ?? 0) + level * waitMs;
    levels.push({ level, atMs });
  }
  return levels;
}
