import { fc, test } from "@fast-check/vitest";
import { deviceIdSchema } from "@fleet-alerts/core/devicecloud";
import {
  bagFolderName,
  clipKey,
  deviceKeySegment,
  eventKey,
  evidencePrefix,
  manifestKey,
  trackKey,
} from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";
import { deviceIdArbitrary, untrustedString } from "../../support/untrusted-strings.js";

// S3's longest key.
const S3_MAX_KEY_BYTES = 1024;
const DOT_SEGMENT = /^\.{1,2}$/;

const job = fc.record({
  deviceid: deviceIdArbitrary(),
  eventtime: fc
    .date({
      min: new Date("2000-01-01T00:00:00Z"),
      max: new Date("2099-12-31T23:59:59Z"),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString()),
  serialno: fc.bigInt({ min: 0n, max: 2n ** 64n }).map(String),
});

/** Every key the evidence of one event is stored under. */
function keysOf(prefix: string): string[] {
  return [
    clipKey(prefix, 1, 0, 1),
    clipKey(prefix, 32, 2, 3),
    manifestKey(prefix),
    eventKey(prefix),
    trackKey(prefix),
    `${prefix}report.html`,
  ];
}

/** The path a browser or SDK asks for, each segment of the key percent-encoded as a URL's. */
function urlPathOf(key: string): string {
  return new URL(`https://b.example/${key.split("/").map(encodeURIComponent).join("/")}`).pathname;
}

describe("evidence keys, whatever the device cloud calls the device", () => {
  test.prop([job], { numRuns: 1000 })(
    "sit under evidence/<one segment>/<yyyy>/<mm>/<dd>/<serial>/",
    ({ deviceid, eventtime, serialno }) => {
      const prefix = evidencePrefix({ deviceid, eventtime, serialno });
      const [yyyy, mm, dd] = eventtime.slice(0, 10).split("-");
      expect(prefix).toBe(`evidence/${deviceKeySegment(deviceid)}/${yyyy}/${mm}/${dd}/${serialno}/`);
      expect(prefix.split("/")).toHaveLength(7);
    },
  );

  test.prop([job], { numRuns: 1000 })(
    "have no empty or dot segment, fit S3's 1,024 bytes, and start with their prefix",
    (sent) => {
      const prefix = evidencePrefix(sent);
      for (const key of keysOf(prefix)) {
        expect(key.startsWith(prefix)).toBe(true);
        expect(Buffer.byteLength(key)).toBeLessThanOrEqual(S3_MAX_KEY_BYTES);
        for (const segment of key.split("/")) {
          expect(segment).not.toBe("");
          expect(segment).not.toMatch(DOT_SEGMENT);
        }
      }
    },
  );

  test.prop([job], { numRuns: 1000 })("keep every segment when a URL resolves them", (sent) => {
    for (const key of keysOf(evidencePrefix(sent))) {
      const path = urlPathOf(key);
      expect(path.split("/").slice(1)).toHaveLength(key.split("/").length);
      // And in a URL written from the key as it is (a console link, a script): nothing resolved away.
      expect(new URL(`https://bucket.example/${key}`).pathname.split("/").slice(1)).toHaveLength(
        key.split("/").length,
      );
      expect(path.endsWith(`/${encodeURIComponent(key.split("/").at(-1) ?? "")}`)).toBe(true);
    }
  });
});

describe("the device's key segment", () => {
  test.prop([fc.oneof(untrustedString(), deviceIdArbitrary())], { numRuns: 1000 })(
    "is one short, URL-safe segment, never a dot segment, for any string",
    (deviceid) => {
      const segment = deviceKeySegment(deviceid);
      expect(segment).not.toContain("/");
      expect(segment).toMatch(/^[A-Za-z0-9%._~!*'()-]*$/);
      expect(segment).not.toMatch(DOT_SEGMENT);
      expect(segment.length).toBeLessThanOrEqual(200);
      expect(segment === "").toBe(deviceid === "");
    },
  );

  /** Two ids near each other: another id, or one spelled as the first one's segment, cased or normalised otherwise. */
  const pairs = deviceIdArbitrary().chain((first) =>
    fc.tuple(
      fc.constant(first),
      fc.oneof(
        deviceIdArbitrary(),
        fc.constantFrom(
          first.toWellFormed(),
          first.toUpperCase(),
          first.normalize("NFC"),
          first.normalize("NFKC"),
          safeDecode(deviceKeySegment(first)),
          `${first}~`,
          deviceKeySegment(first),
        ),
      ),
    ),
  );

  test.prop([pairs], { numRuns: 1000 })("differs for two different device ids", ([first, second]) => {
    fc.pre(first !== second);
    expect(deviceKeySegment(first)).not.toBe(deviceKeySegment(second));
  });

  it("gives a lone surrogate and U+FFFD, two different device ids, two folders", () => {
    expect(deviceKeySegment("\ud800")).not.toBe(deviceKeySegment("\ufffd"));
  });

  it("gives a short device id spelled as a long one's cut segment its own folder", () => {
    const long = `a${"\u0301".repeat(50)}`;
    const [cut = "", digest = ""] = deviceKeySegment(long).split("~");
    const impostor = `${decodeURIComponent(cut)}~${digest}`;
    expect(impostor).not.toBe(long);
    expect(deviceIdSchema.safeParse(impostor).success).toBe(true);
    expect(deviceKeySegment(impostor)).not.toBe(deviceKeySegment(long));
  });

  it.each([
    [".", "~."],
    ["..", "~.."],
    ["...", "~..."],
  ])(
    "marks the segment of dots %j as %j: no URL resolves it, encoded or written as it is",
    (deviceid, segment) => {
      expect(deviceKeySegment(deviceid)).toBe(segment);
    },
  );

  it("keeps ../x in one segment", () => {
    const segment = deviceKeySegment("../x");
    expect(segment).not.toContain("/");
    const prefix = evidencePrefix({ deviceid: "../x", eventtime: "2026-03-29T01:30:00Z", serialno: "1" });
    expect(prefix).toBe(`evidence/${segment}/2026/03/29/1/`);
    expect(urlPathOf(manifestKey(prefix))).toContain(
      `/evidence/${encodeURIComponent(segment)}/2026/03/29/1/`,
    );
  });

  test.prop([untrustedString({ maxLength: 200 })], { numRuns: 1000 })(
    "names a claim pack's folder with no path separator or dot segment",
    (alertId) => {
      const folder = bagFolderName(alertId);
      expect(folder).toMatch(/^claim-[A-Za-z0-9._-]*$/);
    },
  );
});

/** The text a segment decodes to, or the segment itself when it is not a whole UTF-8 encoding. */
function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
