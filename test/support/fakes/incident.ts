import type {
  AccessRecord,
  Acknowledgement,
  AlertRef,
  Incident,
  IncidentAppDeps,
  ShareGrant,
} from "../../../packages/functions/src/incident/ports.js";

/** A link as the share store keeps it (the real one keeps only the token's SHA-256). */
interface StoredLink {
  grant: ShareGrant;
  revoked: boolean;
}

export const MEDIA_ORIGIN = "https://evidence.s3.eu-west-1.amazonaws.com";

/**
 * Every port of the incident app in memory, with the semantics of the real adapters: links expire
 * and are revoked, only the first acknowledgement is recorded, presigned URLs name their key.
 */
export function incidentWorld(publicOrigin = "https://alerts.example.com") {
  let nowMs = Date.parse("2026-03-14T10:00:00Z");
  const links = new Map<string, StoredLink>();
  const incidents = new Map<string, Incident>();
  const accesses: AccessRecord[] = [];
  const errors: { message: string; fields: Record<string, unknown> }[] = [];
  const presigned: { alertId: string; key: string }[] = [];
  const acknowledged = new Map<string, Acknowledgement>();
  const packs = new Map<string, string>();
  const packRequests: string[] = [];

  const deps: IncidentAppDeps = {
    shares: {
      resolve: async (token, atMs) => {
        const link = links.get(token);
        return link && !link.revoked && atMs < link.grant.expiresAtMs ? link.grant : undefined;
      },
    },
    acknowledgements: {
      acknowledge: async (alert, acknowledgement) => {
        const existing = acknowledged.get(alert.alertId);
        if (existing) return { recorded: false, existing: { by: existing.by, atMs: existing.atMs } };
        acknowledged.set(alert.alertId, acknowledgement);
        return { recorded: true };
      },
    },
    audit: { recordAccess: async (access) => void accesses.push(access) },
    evidence: {
      presignClip: async (alert, key) => {
        presigned.push({ alertId: alert.alertId, key });
        return `${MEDIA_ORIGIN}/${key}?X-Amz-Expires=600&X-Amz-Signature=fake`;
      },
      // As the real adapter: no pack while the evidence is pending; a built one is a download link.
      claimPack: async (alert) => {
        const incident = incidents.get(alert.alertId);
        if (!incident || incident.evidence.status === "pending") return { status: "none" };
        const url = packs.get(alert.alertId);
        return url ? { status: "ready", url } : { status: "not-built" };
      },
      requestClaimPack: async (alert) => void packRequests.push(alert.alertId),
    },
    incidents: {
      load: async (alert: AlertRef) => {
        const incident = incidents.get(alert.alertId);
        const acknowledgement = acknowledged.get(alert.alertId);
        return incident && (acknowledgement ? { ...incident, acknowledgement } : incident);
      },
    },
    logger: { error: (message, fields) => void errors.push({ message, fields }) },
    publicOrigin,
    mediaOrigin: MEDIA_ORIGIN,
    formSecret: "test-form-secret",
    now: () => nowMs,
  };

  return {
    deps,
    accesses,
    errors,
    presigned,
    acknowledged,
    /** The alerts whose claim pack was asked to be built, in order. */
    packRequests,
    /** A live link to `alert`, valid for an hour from now. */
    share(token: string, alert: AlertRef, scope: ShareGrant["scope"] = "view+ack"): ShareGrant {
      const grant = { ...alert, scope, expiresAtMs: nowMs + 3_600_000, tokenId: `tid-${links.size + 1}` };
      links.set(token, { grant, revoked: false });
      return grant;
    },
    revoke(token: string) {
      const link = links.get(token);
      if (link) link.revoked = true;
    },
    /** `claimPackUrl`: the alert's claim pack is built, and downloads from there. */
    addIncident(alertId: string, incident: Incident, claimPackUrl?: string) {
      incidents.set(alertId, incident);
      if (claimPackUrl) packs.set(alertId, claimPackUrl);
    },
    advance(ms: number) {
      nowMs += ms;
    },
  };
}

/** An alert's key from its id (`account:serialno:rule`). */
export function alertRef(account: string, serialno: bigint, ruleId: string): AlertRef {
  return { alertId: `${account}:${serialno}:${ruleId}`, account, serialno, ruleId };
}

/** An OverSpeed with stored evidence (two clips, a track with speeds), published and not acknowledged. */
export function storedIncident(overrides: Partial<Incident> = {}): Incident {
  const eventMs = Date.parse("2026-03-14T09:30:00Z");
  const track = Array.from({ length: 7 }, (_, index) => ({
    lat: 52.52 + index * 0.0004,
    lng: 13.405 + index * 0.0006,
    timeMs: eventMs - 30_000 + index * 10_000,
    speedKmh: 60 + index * 5,
  }));
  const clip = (channel: number, digit: string) => ({
    key: `evidence/D1/2026/03/14/1001/data/ch${channel}.mp4`,
    channel,
    part: 0,
    startMs: eventMs - 60_000,
    endMs: eventMs + 60_000,
    sha256: digit.repeat(64),
    bytes: 160_000,
  });
  return {
    event: {
      name: "OverSpeed",
      serialno: "1001",
      eventMs,
      deviceid: "D1",
      vehicle: "HH-FA 101",
      driver: "Dana <Driver>",
    },
    fleetTimeZone: "Europe/Berlin",
    position: { lat: 52.5212, lng: 13.4068, source: "track" },
    speedAtEventKmh: 75.4,
    speedLimitKmh: 50,
    window: { startMs: eventMs - 60_000, endMs: eventMs + 60_000 },
    track,
    evidence: { status: "stored", clips: [clip(1, "a"), clip(2, "b")], storedAtMs: eventMs + 300_000 },
    publishedAtMs: eventMs + 20_000,
    escalations: [{ level: 1, atMs: eventMs + 600_000 }],
    ...overrides,
  };
}
