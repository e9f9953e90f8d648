import {
  buildAlertMessage,
  fillLink,
  hasLinkSlot,
  MAX_PUBLIC_BASE_URL_LENGTH,
  publicBaseUrlProblem,
} from "@fleet-alerts/core/alerts";
import { parseEnv, pollerEnvSchema } from "@fleet-alerts/core/config";
import { derivedShareToken } from "@fleet-alerts/core/share";
import { describe, expect, it } from "vitest";
import {
  AWKWARD_NAMES,
  awkwardTitle,
  context,
  eventAt,
  fleetDevice,
  GSM_SAFE_ASCII,
  INCIDENT_AT_EVENT,
  overspeed,
} from "../fixtures.js";

const TOKEN = derivedShareToken("a secret of at least thirty-two characters", "east:1:x").token;
// As long as a base URL may be: the tightest SMS.
const LONGEST_BASE = `https://${"a".repeat(MAX_PUBLIC_BASE_URL_LENGTH - "https://.example".length)}.example`;

function sent(overrides: Parameters<typeof context>[0]) {
  return fillLink(buildAlertMessage(context({ incident: INCIDENT_AT_EVENT, ...overrides })), TOKEN);
}

describe("the incident link in an alert's messages", () => {
  for (const base of ["https://alerts.example.com", LONGEST_BASE]) {
    for (const names of AWKWARD_NAMES) {
      const [vehicleid, drivername] = names;
      it(`ends the SMS, within one segment, with ${awkwardTitle(names)} and a ${base.length}-character base`, () => {
        const { sms } = sent({
          device: fleetDevice({ vehicleid, drivername }),
          suppressedBefore: 12,
          linkBaseUrl: base,
        });
        expect(sms).toMatch(GSM_SAFE_ASCII);
        expect(sms.length).toBeLessThanOrEqual(160);
        expect(sms.endsWith(` ${base}/i/${TOKEN}`)).toBe(true);
        expect(sms).toMatch(/^CRITICAL GSensor - /);
        expect(sms).toContain("29 Mar 03:30 UTC+2");
      });
    }
  }

  it("keeps an OverSpeed's speed and limit beside the longest link", () => {
    const { sms } = sent({
      rule: overspeed,
      event: eventAt("2026-03-29T01:30:00Z", { appdevid: 13 }),
      device: fleetDevice({ vehicleid: "V".repeat(80), drivername: "D".repeat(80) }),
      incident: { ...INCIDENT_AT_EVENT, motion: { speedKmh: 97.4, source: "track" }, speedLimitKmh: 80 },
      linkBaseUrl: LONGEST_BASE,
    });
    expect(sms.length).toBeLessThanOrEqual(160);
    expect(sms).toMatch(/^WARNING OverSpeed 97 km\/h \(limit 80\) - V+\.\.\. \(D+\.\.\.\) 29 Mar/);
    expect(sms.endsWith(`/i/${TOKEN}`)).toBe(true);
  });

  it("is in the email near the top, and rendered with a slot, never a token, until it is filled", () => {
    const rendered = buildAlertMessage(
      context({ incident: INCIDENT_AT_EVENT, linkBaseUrl: "https://alerts.example.com" }),
    );
    expect(hasLinkSlot(rendered)).toBe(true);
    expect(rendered.email).toContain("https://alerts.example.com/i/{token}");
    const { email } = fillLink(rendered, TOKEN);
    expect(email.split("\n\n")[1]).toContain(
      `Open the incident (map, speed, video, acknowledge): https://alerts.example.com/i/${TOKEN}`,
    );
    expect(email).not.toContain("{token}");
  });

  it("is absent without a base URL, the messages as before", () => {
    const facts = { incident: INCIDENT_AT_EVENT, suppressedBefore: 3 };
    const message = buildAlertMessage(context(facts));
    expect(hasLinkSlot(message)).toBe(false);
    expect(message.sms).toBe(
      "CRITICAL GSensor - TRK-01 (Ada Lovelace) 29 Mar 03:30 UTC+2, at 52.5200,13.4050, 82 km/h, 3 repeats suppressed",
    );
    expect(message.email).not.toContain("/i/");
  });
});

describe("PUBLIC_BASE_URL", () => {
  const env = {
    TABLE_NAME: "t",
    ALERTS_TOPIC_ARN: "arn:aws:sns:eu-west-1:123456789012:alerts",
    EVIDENCE_QUEUE_URL: "http://127.0.0.1/q",
    CONFIRM_QUEUE_URL: "http://127.0.0.1/c",
    DEVICE_CLOUD_ACCOUNTS: JSON.stringify([
      { id: "east", baseUrl: "https://cloud.example.com", username: "u" },
    ]),
    SHARE_LINK_SECRET: "s".repeat(32),
  };

  it("is refused at start when no SMS would hold its links, or outside the SMS alphabet", () => {
    expect(publicBaseUrlProblem(LONGEST_BASE)).toBeUndefined();
    expect(() => parseEnv(pollerEnvSchema, { ...env, PUBLIC_BASE_URL: `${LONGEST_BASE}x` })).toThrow(
      `PUBLIC_BASE_URL: must be at most ${MAX_PUBLIC_BASE_URL_LENGTH} characters`,
    );
    expect(() =>
      parseEnv(pollerEnvSchema, { ...env, PUBLIC_BASE_URL: "https://example.com/~fleet" }),
    ).toThrow("GSM 03.38");
  });

  it("needs SHARE_LINK_SECRET, and reads SHARE_LINK_HOURS (72 by default)", () => {
    const { SHARE_LINK_SECRET: _secret, ...withoutSecret } = env;
    expect(() =>
      parseEnv(pollerEnvSchema, { ...withoutSecret, PUBLIC_BASE_URL: "https://a.example" }),
    ).toThrow("SHARE_LINK_SECRET: missing");
    const config = parseEnv(pollerEnvSchema, { ...env, PUBLIC_BASE_URL: "https://a.example/" });
    expect(config.PUBLIC_BASE_URL).toBe("https://a.example");
    expect(config.SHARE_LINK_HOURS).toBe(72);
    expect(parseEnv(pollerEnvSchema, withoutSecret).PUBLIC_BASE_URL).toBeUndefined();
  });
});
