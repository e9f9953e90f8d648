import { MAX_PUBLIC_BASE_URL_LENGTH } from "@fleet-alerts/core/alerts";
import {
  atRiskAnnouncement,
  type EvidenceManifest,
  evidenceAnnouncement,
  evidenceJobSchema,
} from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Printable ASCII without the characters GSM 03.38 lacks or escapes (which would cost two).
const GSM_SAFE_ASCII = /^[\x20-\x5a\x5f\x61-\x7a]*$/;

function jobFor(deviceid: string) {
  return evidenceJobSchema.parse({
    version: 1,
    alertId: "east:1000123:gsensor",
    account: "east",
    ruleId: "gsensor",
    deviceid,
    serialno: "1000123",
    eventtime: "2026-03-29T01:30:00.000Z",
    channels: [1, 2],
    secondsBefore: 15,
    secondsAfter: 15,
    severity: "critical",
    event: {},
  });
}

const clip = { channel: 1, bytes: 1024, sha256: "0".repeat(64) };
const manifest = {
  coverage: { totalMinutes: 2, recordedMinutes: 2, partial: false, missing: [] },
  clips: [
    { ...clip, key: "evidence/east/1000123/ch1.mp4" },
    { ...clip, key: "evidence/east/1000123/ch2.mp4", channel: 2 },
  ],
} as unknown as EvidenceManifest;
const stored = {
  status: "stored" as const,
  bucket: "evidence",
  manifestKey: "evidence/east/1000123/manifest.json",
  manifest,
};
const outcomes = [stored, { status: "unavailable" }] as const;

describe("evidence announcement: the usual case", () => {
  it("announces stored evidence", () => {
    const message = evidenceAnnouncement(jobFor("0012345678"), stored);
    expect(message.subject).toBe("Evidence ready - 0012345678 event 1000123");
    expect(message.sms).toBe("Evidence ready: 0012345678 event 1000123, 2 clip(s)");
    expect(message.attributes).toMatchObject({
      kind: { DataType: "String", StringValue: "evidence" },
      evidence_status: { DataType: "String", StringValue: "stored" },
      deviceid: { DataType: "String", StringValue: "0012345678" },
    });
  });

  it("names the claim pack and how to pack it for an insurer, for sets that are bags", () => {
    const bagged = { ...stored, manifest: { ...manifest, version: 3 } as EvidenceManifest };
    expect(evidenceAnnouncement(jobFor("0012345678"), bagged).email).toContain(
      "Claim pack (a BagIt bag; open its report.html): s3://evidence/evidence/east/1000123/\n" +
        "For an insurer: fleet-alerts evidence pack east:1000123:gsensor --out claim.zip\n",
    );
    expect(evidenceAnnouncement(jobFor("0012345678"), stored).email).not.toContain("Claim pack");
  });

  it("announces that no evidence could be had", () => {
    const message = evidenceAnnouncement(jobFor("0012345678"), { status: "unavailable" });
    expect(message.subject).toBe("Evidence unavailable - 0012345678");
    expect(message.sms).toBe("Evidence unavailable: 0012345678 event 1000123");
    expect(message.attributes.evidence_status).toEqual({ DataType: "String", StringValue: "unavailable" });
  });
});

describe("evidence announcement: subject and SMS limits, as for alerts", () => {
  const awkwardIds = [
    "Müller-Bus [3] €",
    "TRK{north}|~^`x`\\y",
    "Фура 12 ü",
    "dev\u2028ice",
    "V".repeat(128),
  ];

  for (const deviceid of awkwardIds) {
    for (const outcome of outcomes) {
      it(`fits ${JSON.stringify(deviceid.slice(0, 24))} when ${outcome.status}`, () => {
        const message = evidenceAnnouncement(jobFor(deviceid), outcome);
        expect(message.subject).toMatch(PRINTABLE_ASCII);
        expect(message.subject.length).toBeLessThan(100);
        expect(message.sms).toMatch(GSM_SAFE_ASCII);
        expect(message.sms.length).toBeLessThanOrEqual(160);
        // The device's id must not add lines to the email either.
        expect(message.email.split("\n")[0]).toContain("event 1000123");
      });
    }
  }

  it("transliterates the device id like an alert's names", () => {
    const message = evidenceAnnouncement(jobFor("Müller-Bus [3] €"), stored);
    expect(message.subject).toBe("Evidence ready - Muller-Bus [3] EUR event 1000123");
    expect(message.sms).toBe("Evidence ready: Muller-Bus (3) EUR event 1000123, 2 clip(s)");
  });

  it("cuts an overlong device id with an ellipsis and keeps the event", () => {
    const message = evidenceAnnouncement(jobFor("V".repeat(128)), stored);
    expect(message.subject).toBe(`Evidence ready - ${"V".repeat(65)}... event 1000123`);
    expect(message.subject).toHaveLength(99);
    expect(message.sms).toBe(`Evidence ready: ${"V".repeat(116)}... event 1000123, 2 clip(s)`);
    expect(message.sms).toHaveLength(160);
  });
});

describe("evidence announcement: the alert's incident link", () => {
  // The longest base URL a stage may set (alerts/incident-link.ts), and a 22-character token.
  const link = `https://${"x".repeat(MAX_PUBLIC_BASE_URL_LENGTH - "https://".length)}/i/${"T".repeat(22)}`;

  for (const outcome of outcomes) {
    it(`ends the SMS with the whole link and puts it in the email when ${outcome.status}`, () => {
      const message = evidenceAnnouncement(jobFor("V".repeat(128)), outcome, link);
      expect(message.sms.length).toBeLessThanOrEqual(160);
      expect(message.sms.endsWith(` ${link}`)).toBe(true);
      expect(message.sms).toMatch(/^Evidence (ready|unavailable): V+\.\.\. event 1000123/);
      expect(message.email).toContain(`Open the incident (video, hashes, acknowledge): ${link}\n`);
      // Machine subscribers get ids, never access.
      expect(message.default).not.toContain(link);
      expect(message.subject).not.toContain(link);
    });
  }

  it("leaves the messages without a link as they were", () => {
    const message = evidenceAnnouncement(jobFor("0012345678"), stored);
    expect(message.email).not.toContain("/i/");
    expect(message.sms).toBe("Evidence ready: 0012345678 event 1000123, 2 clip(s)");
  });
});

describe("footage at risk, and footage overwritten while the vehicle stayed offline", () => {
  const wait = {
    offlineSinceMs: Date.parse("2026-03-29T01:31:00Z"),
    keptUntilMs: Date.parse("2026-03-31T01:30:00Z"),
    retentionDays: 2,
  };
  const link = `https://${"x".repeat(MAX_PUBLIC_BASE_URL_LENGTH - "https://".length)}/i/${"T".repeat(22)}`;

  it("says until when the card keeps it and what to do, within the subject's and the SMS's limits", () => {
    for (const deviceid of ["0012345678", "Фура 12 ü", "dev\u2028ice", "V".repeat(128)]) {
      const message = atRiskAnnouncement(jobFor(deviceid), wait, link);
      expect(message.subject).toMatch(/^Footage at risk - /);
      expect(message.subject).toMatch(PRINTABLE_ASCII);
      expect(message.subject.length).toBeLessThan(100);
      expect(message.sms.length).toBeLessThanOrEqual(160);
      expect(message.sms.endsWith(` ${link}`)).toBe(true);
      expect(message.email.split("\n")[0]).toContain("event 1000123");
      expect(message.default).not.toContain(link);
    }
    const message = atRiskAnnouncement(jobFor("0012345678"), { ...wait, retentionDays: null });
    expect(message.email).toContain(
      "offline since 2026-03-29 01:31:00 UTC, and its card's retention is not known, so the longest wait this deployment allows was used: unless the vehicle comes online (ignition on, within network coverage) before 2026-03-31 01:30:00 UTC, the footage will be overwritten.",
    );
    expect(message.attributes.evidence_status).toEqual({ DataType: "String", StringValue: "at-risk" });
    expect(JSON.parse(message.default)).toMatchObject({ status: "at-risk", retentionDays: null });
  });

  it("says why there is no video when the card overwrote it", () => {
    const overwritten = {
      offlineSince: "2026-03-29T01:31:00.000Z",
      keptUntil: "2026-03-31T01:30:00.000Z",
      retentionDays: 2,
    };
    const message = evidenceAnnouncement(jobFor("0012345678"), { status: "unavailable", overwritten });
    expect(message.email).toContain(
      "No video: the vehicle was offline from 2026-03-29 01:31:00 UTC and did not come back online before 2026-03-31 01:30:00 UTC, by when the recorder will have overwritten the footage (its card keeps footage about 2 days).",
    );
    expect(JSON.parse(message.default)).toMatchObject({
      footage: { outcome: "overwritten", ...overwritten },
    });
  });
});
