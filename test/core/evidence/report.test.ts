import {
  type ClaimReportModel,
  type ReportTrackPoint,
  renderClaimReport,
  renderTimestampPage,
} from "@fleet-alerts/core/evidence";
import { afterEach, describe, expect, it, vi } from "vitest";
import { fitProjection } from "../../../packages/core/src/evidence/report/map-projection.js";
import { relativeUrl } from "../../../packages/core/src/evidence/report/markup.js";
import {
  roundNumberAtLeast,
  roundNumberAtMost,
} from "../../../packages/core/src/evidence/report/round-numbers.js";
import { speedChartSvg } from "../../../packages/core/src/evidence/report/speed-chart-svg.js";
import { scaleBar, trackMapSvg } from "../../../packages/core/src/evidence/report/track-map-svg.js";
import { claimReportModel, drive, EVENT_MS, WINDOW } from "../../support/claim-report-model.js";

const HOSTILE = `<script>alert("owned")</script>`;

/** The polyline's vertices and the event marker's centre, as the SVG writes them. */
function mapGeometry(svg: string): { vertices: string[]; marker: string } {
  const vertices = /<polyline class="track" points="([^"]*)"/.exec(svg)?.[1]?.split(" ") ?? [];
  const marker = /<circle class="event-marker" cx="([^"]+)" cy="([^"]+)"/.exec(svg);
  return { vertices, marker: `${marker?.[1]},${marker?.[2]}` };
}

function withTrack(points: ReportTrackPoint[], model = claimReportModel()): ClaimReportModel {
  return { ...model, track: { status: "stored", points } };
}

afterEach(() => vi.useRealTimers());

describe("the claim report's text", () => {
  it("escapes everything a device reports: a driver named <script> is text, not markup", () => {
    const model = claimReportModel();
    model.event = {
      ...model.event,
      driver: HOSTILE,
      vehicle: `"><img src=x onerror=alert(1)>`,
      deviceid: "dev'1&2",
    };
    model.missing = ["<b>bold</b> is not bold"];
    const html = renderClaimReport(model);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/<img/i);
    expect(html).toContain("&lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;");
    expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("dev&#39;1&amp;2");
    expect(html).toContain("<li>&lt;b&gt;bold&lt;/b&gt; is not bold</li>");
  });

  it("loads nothing but files beside it: a CSP without script or other hosts, relative sources only", () => {
    const html = renderClaimReport(claimReportModel());
    expect(html).toContain(
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; media-src 'self'; frame-src 'self';`,
    );
    expect([...html.matchAll(/\ssrc="([^"]*)"/g)].map((match) => match[1])).toEqual([
      "data/ch1.mp4",
      "data/ch2.mp4",
      "timestamp.html",
    ]);
    expect(html).not.toMatch(/<script|<img|<link|@import|url\(/i);
    expect(relativeUrl("data/javascript:alert(1) #?.mp4")).toBe("data/javascript%3Aalert(1)%20%23%3F.mp4");
  });

  it("shows the event in UTC and in the fleet's zone, with the offset in force at each instant across a DST change", () => {
    // Europe/Berlin springs forward at 01:00 UTC on 29 March 2026: 02:00 CET becomes 03:00 CEST.
    const model = claimReportModel();
    model.event = { ...model.event, eventMs: Date.parse("2026-03-29T01:30:00Z") };
    const [clip] = model.clips;
    model.clips = [
      {
        ...(clip as ClaimReportModel["clips"][number]),
        startMs: Date.parse("2026-03-29T00:59:30Z"),
        endMs: Date.parse("2026-03-29T01:00:30Z"),
      },
    ];
    const html = renderClaimReport(model);
    expect(html).toContain("<dd>2026-03-29 01:30:00 UTC</dd>");
    expect(html).toContain("<dd>2026-03-29 03:30:00 Europe/Berlin (UTC+02:00)</dd>");
    expect(html).toContain("2026-03-29 00:59:30 UTC – 01:00:30 UTC");
    expect(html).toContain("2026-03-29 01:59:30 UTC+1 – 03:00:30 UTC+2");

    model.event.eventMs = Date.parse("2026-01-15T23:30:00Z");
    expect(renderClaimReport(model)).toContain("<dd>2026-01-16 00:30:00 Europe/Berlin (UTC+01:00)</dd>");
  });

  it("renders the same bytes for the same model, whatever the clock says", () => {
    vi.useFakeTimers();
    vi.setSystemTime(Date.parse("2027-01-01T00:00:00Z"));
    const first = renderClaimReport(claimReportModel());
    vi.setSystemTime(Date.parse("2031-06-30T12:00:00Z"));
    expect(renderClaimReport(claimReportModel())).toBe(first);
  });

  it("lists every file with its size and digest, and the custody of each clip", () => {
    const html = renderClaimReport(claimReportModel());
    expect(html).toContain(
      `<tr><td><code>data/event.json</code></td><td>the event as received</td><td class="number">812</td><td><code class="digest">${"cd".repeat(32)}</code></td></tr>`,
    );
    expect(html).toContain("/fleetops/[redacted]</code>");
    expect(html).toContain(`<time datetime="2026-07-14T08:16:20.412Z">2026-07-14T08:16:20.412Z</time>`);
    expect(html).toContain("<dd>fleet-alerts 0.1.0</dd>");
    expect(html).toContain("<dd>Example Logistics GmbH</dd>");
    expect(html).toContain("<p>Nothing is missing.</p>");
  });

  it("names footage asked for by hand as such, with who asked, when and why (escaped) first in its custody", () => {
    const base = claimReportModel();
    const request = {
      reason: `Claim 7 ${HOSTILE}`,
      requestedBy: "dana <ops>",
      requestedAt: "2026-07-21T09:00:00.000Z",
    };
    const html = renderClaimReport({
      ...base,
      event: { ...base.event, name: "Footage requested", code: undefined },
      custody: { ...base.custody, request },
    });
    expect(html).toContain("<h1>Footage requested · ");
    expect(html).not.toContain("(code ");
    const custody = html.slice(html.indexOf(`<section id="custody">`));
    expect(custody).toMatch(
      /<dt>Requested by<\/dt><dd>dana &lt;ops&gt;<\/dd>\s*<dt>Requested \(UTC\)<\/dt><dd><time datetime="2026-07-21T09:00:00.000Z">/,
    );
    expect(custody).toContain(
      `<dt>Reason given</dt><dd>Claim 7 &lt;script&gt;alert(&quot;owned&quot;)&lt;/script&gt;</dd>`,
    );
    expect(custody.indexOf("Requested by")).toBeLessThan(custody.indexOf("Collected by"));
    expect(html).not.toContain(HOSTILE);
    // An alert's report has no request, and says nothing of one.
    expect(renderClaimReport(base)).not.toContain("Requested by");
  });

  it("frames timestamp.html and explains why when the stage stamps; says how to verify either way", () => {
    const stamped = renderClaimReport(claimReportModel());
    expect(stamped).toContain(
      `<iframe src="timestamp.html" title="The time-stamp token of this bag" sandbox>`,
    );
    expect(stamped).toContain("this report therefore exists before the token and cannot contain it");
    expect(stamped).toContain(`<a href="timestamp.html">Open timestamp.html on its own</a>`);
    expect(stamped).toContain("sha256sum -c manifest-sha256.txt\nsha256sum -c tagmanifest-sha256.txt\n");
    expect(stamped).toContain(
      "openssl ts -verify -data tagmanifest-sha256.txt -in tagmanifest-sha256.txt.tsr -CAfile &lt;TSA&#39;s CA&gt;",
    );
    expect(stamped).toContain("fleet-alerts evidence verify &lt;folder or zip&gt;");

    const unstamped = renderClaimReport({ ...claimReportModel(), timestamped: false });
    expect(unstamped).not.toContain("<iframe");
    expect(unstamped).not.toContain("openssl ts");
    expect(unstamped).toContain("sha256sum -c tagmanifest-sha256.txt");
  });
});

describe("what could not be had", () => {
  it("says why there is no track, instead of a map and a chart", () => {
    const model = claimReportModel();
    model.track = { status: "unavailable", reason: "the device cloud returned no GPS for the window." };
    const html = renderClaimReport(model);
    expect(html).toContain("No track: the device cloud returned no GPS for the window.");
    expect(html).toContain("No speed over the window: there is no track.");
    expect(html).not.toContain("<svg");
    // The position the event itself reported still links to the map.
    expect(html).toContain("https://www.openstreetmap.org/?mlat=");
  });

  it("renders a model without clips, with the reasons", () => {
    const model = { ...claimReportModel(), clips: [], missing: ["No recording: the device was offline."] };
    const html = renderClaimReport(model);
    expect(html).not.toContain("<video");
    expect(html).toContain("No clip was stored");
    expect(html).toContain("No clip was requested and stored.");
    expect(html).toContain("<li>No recording: the device was offline.</li>");
  });

  it("renders one channel's clip and says why the other is missing", () => {
    const model = claimReportModel();
    model.clips = model.clips.slice(0, 1);
    model.missing = ["Channel 2: the device cloud had no recording for the window."];
    const html = renderClaimReport(model);
    expect(html.match(/<video /g)).toHaveLength(1);
    expect(html).toContain(`<video controls preload="metadata" src="data/ch1.mp4"></video>`);
    expect(html).toContain("<strong>Channel 1</strong>");
    expect(html).toContain("<li>Channel 2: the device cloud had no recording for the window.</li>");
  });
});

describe("the track map", () => {
  it("draws the event marker on a vertex of the path when the event is a track point", () => {
    const html = renderClaimReport(claimReportModel());
    const { vertices, marker } = mapGeometry(html);
    expect(vertices).toHaveLength(61);
    expect(marker).toBe(vertices[40]);
  });

  it("marks the track point nearest the event time when the model has no position", () => {
    const model = { ...claimReportModel(), position: undefined };
    model.event = { ...model.event, eventMs: EVENT_MS + 12_400 };
    const { vertices, marker } = mapGeometry(renderClaimReport(model));
    expect(marker).toBe(vertices[52]);
  });

  it("keeps a metre as long across as up (equirectangular, longitudes shrunk by the latitude's cosine)", () => {
    const origin = { lat: 60, lng: 10 };
    const projection = fitProjection([origin], { width: 640, height: 400, margin: 36 });
    // 100 m north and 100 m east of 60° N, 10° E on the mean sphere.
    const north = projection.project({ lat: 60 + 100 / 111_195.08, lng: 10 });
    const east = projection.project({ lat: 60, lng: 10 + 100 / (111_195.08 * Math.cos(Math.PI / 3)) });
    const centre = projection.project(origin);
    expect(centre).toEqual({ x: 320, y: 200 });
    expect((centre.y - north.y) * projection.metresPerUnit).toBeCloseTo(100, 3);
    expect((east.x - centre.x) * projection.metresPerUnit).toBeCloseTo(100, 3);
  });

  it("chooses a round scale bar no longer than it may be", () => {
    expect(scaleBar(1.23, 142)).toMatchObject({ metres: 100, label: "100 m" });
    expect(scaleBar(1.5, 142)).toMatchObject({ metres: 200, label: "200 m" });
    expect(scaleBar(4, 142)).toMatchObject({ metres: 500, label: "500 m" });
    expect(scaleBar(10, 142)).toMatchObject({ metres: 1000, label: "1 km" });
    expect(scaleBar(40, 142)).toMatchObject({ metres: 5000, label: "5 km" });
    expect(scaleBar(0.4, 142)).toMatchObject({ metres: 50, units: 125, label: "50 m" });
    expect([roundNumberAtMost(999), roundNumberAtMost(1000), roundNumberAtLeast(13.6)]).toEqual([
      500, 1000, 20,
    ]);
  });

  it("draws one point, or many at one place, as at least 100 m of ground with finite coordinates", () => {
    const parked = drive().map((point) => ({ ...point, lat: 52.5, lng: 13.4 }));
    for (const track of [parked.slice(0, 1), parked]) {
      const svg = trackMapSvg(track, { lat: 52.5, lng: 13.4 });
      expect(svg).not.toContain("NaN");
      expect(svg).toContain(`<circle class="event-marker" cx="320.0" cy="200.0"`);
      // 100 m over the map's 328-unit height: a quarter of its width (142 units) is 43 m, so 20 m.
      expect(svg).toMatch(/<text [^>]*>20 m<\/text>/);
    }
  });

  it("says so when the stored track holds no position", () => {
    const html = renderClaimReport(withTrack([], { ...claimReportModel(), position: undefined }));
    expect(html).toContain("The track over the window holds no usable position.");
    expect(html).not.toContain("openstreetmap");
  });

  it("links to the event position on OpenStreetMap, and loads nothing from it", () => {
    const html = renderClaimReport(claimReportModel());
    expect(html).toMatch(
      /<a href="https:\/\/www\.openstreetmap\.org\/\?mlat=52\.\d{6}&amp;mlon=13\.\d{6}#map=16\/52\.\d{6}\/13\.\d{6}" rel="noreferrer noopener">/,
    );
  });
});

describe("the speed chart", () => {
  const chart = { points: drive(), window: WINDOW, eventMs: EVENT_MS };

  it("breaks the line where a point has no speed and marks the event and the limit", () => {
    const svg = speedChartSvg({ ...chart, limitKmh: 50 });
    const path = /<path class="speed" d="([^"]*)"/.exec(svg)?.[1] ?? "";
    expect(path.match(/M/g)).toHaveLength(2);
    expect(svg).toContain(`<line class="event-line" x1="434.7" x2="434.7"`);
    expect(svg).toContain(">limit 50 km/h</text>");
    // Up to 68 km/h: ticks of 20 to 80.
    expect([...svg.matchAll(/text-anchor="end" [^>]*>(\d+)<\/text>/g)].map((match) => match[1])).toEqual([
      "0",
      "20",
      "40",
      "60",
      "80",
    ]);
    expect(svg).toContain(">−40 s</text>");
    expect(svg).toContain(">+20 s</text>");
  });

  it("draws no limit line when none is stated, and says so when no point has a speed", () => {
    expect(speedChartSvg(chart)).not.toContain("speed-limit");
    const speedless = drive().map((point) => ({ ...point, speedKmh: null }));
    expect(renderClaimReport(withTrack(speedless))).toContain(
      "No speed over the window: no GPS point states one.",
    );
  });
});

describe("timestamp.html", () => {
  const facts = {
    genTime: "2026-07-14T08:16:33Z",
    tsaName: "CN=Test TSA <evil>",
    serialNumber: "0x5f3a",
    policy: "1.2.3.4.1",
    messageImprintSha256: "9f".repeat(32),
    chain: [
      {
        subject: "CN=Test TSA",
        issuer: "CN=Test Root",
        notBefore: "2026-01-01T00:00:00Z",
        notAfter: "2027-01-01T00:00:00Z",
        serialNumber: "01",
        sha256Fingerprint: "aa".repeat(32),
      },
      {
        subject: "CN=Test Root",
        issuer: "CN=Test Root",
        notBefore: "2025-01-01T00:00:00Z",
        notAfter: "2035-01-01T00:00:00Z",
        serialNumber: "02",
        sha256Fingerprint: "bb".repeat(32),
      },
    ],
  };

  it("shows a token's time, authority, serial, policy, imprint and chain, escaped, without script", () => {
    const html = renderTimestampPage({ status: "stamped", facts });
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline';`);
    expect(html).not.toMatch(/<script|\ssrc=/i);
    expect(html).toContain(`<time datetime="2026-07-14T08:16:33Z">2026-07-14T08:16:33Z</time>`);
    expect(html).toContain("<dd>CN=Test TSA &lt;evil&gt;</dd>");
    expect(html).toContain("<code>1.2.3.4.1</code>");
    expect(html).toContain("9f".repeat(32));
    expect(html.match(/<tr><td>CN=Test/g)).toHaveLength(2);
  });

  it("says a token is pending and when it is tried again, or why there is none", () => {
    const pending = renderTimestampPage({
      status: "pending",
      reason: "the authority did not answer within 10 s.",
      nextAttemptAt: "2026-07-14T08:21:00Z",
    });
    expect(pending).toContain("Time-stamp pending");
    expect(pending).toContain("the authority did not answer within 10 s.");
    expect(pending).toContain(">2026-07-14T08:21:00Z</time>");
    const unavailable = renderTimestampPage({
      status: "unavailable",
      reason: "the authority refused: <badAlg>.",
    });
    expect(unavailable).toContain("No time-stamp");
    expect(unavailable).toContain("the authority refused: &lt;badAlg&gt;.");
  });
});
