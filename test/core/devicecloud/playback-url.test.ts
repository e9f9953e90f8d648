import {
  channelSelector,
  DeviceCloudClient,
  DeviceCloudInvalidArgumentError,
  formatPlaybackTimestamp,
  hashPassword,
} from "@fleet-alerts/core/devicecloud";
import { describe, expect, it } from "vitest";

const client = new DeviceCloudClient({
  baseUrl: "https://cloud.example/prefix/",
  credentials: { username: "fleet ops", password: "pw" },
});
const start = new Date("2026-01-05T23:45:30.750Z");

describe("playback URL", () => {
  it("maps channel N to bit N-1", () => {
    expect([1, 2, 3, 8, 32].map(channelSelector)).toEqual([1, 2, 4, 128, 2147483648]);
  });

  it("writes the instant as wall-clock time at the offset, including negative and half-hour zones", () => {
    expect(formatPlaybackTimestamp(start, 0)).toBe("2026-01-05T23:45:30+0000");
    expect(formatPlaybackTimestamp(start, 330)).toBe("2026-01-06T05:15:30+0530");
    expect(formatPlaybackTimestamp(start, -210)).toBe("2026-01-05T20:15:30-0330");
    expect(formatPlaybackTimestamp(start, 345)).toBe("2026-01-06T05:30:30+0545");
    expect(formatPlaybackTimestamp(start, -720)).toBe("2026-01-05T11:45:30-1200");
  });

  it("builds the spec's path with every segment encoded and a redacted copy", () => {
    const { url, redactedUrl, request } = client.playbackUrl({
      deviceid: "MDVR 7",
      channel: 3,
      durationMinutes: 2,
      start,
      utcOffset: "+05:30",
      fileName: "clip_1.mp4",
    });
    const hash = hashPassword("pw");
    expect(url.toString()).toBe(
      `https://cloud.example/prefix/dlplayback/MDVR%207@4/2/2026-01-06T05%3A15%3A30%2B0530/fleet%20ops/${hash}/clip_1.mp4`,
    );
    expect(redactedUrl).toBe(
      "https://cloud.example/prefix/dlplayback/MDVR%207@4/2/2026-01-06T05%3A15%3A30%2B0530/fleet%20ops/[redacted]/clip_1.mp4",
    );
    expect(redactedUrl).not.toContain(hash);
    expect(request.timestamp).toBe("2026-01-06T05:15:30+0530");
  });

  it("leaves the selector and file name out when not given", () => {
    const { url } = client.playbackUrl({ deviceid: "D1", durationMinutes: 30, start });
    expect(url.pathname).toBe(
      `/prefix/dlplayback/D1/30/2026-01-05T23%3A45%3A30%2B0000/fleet%20ops/${hashPassword("pw")}`,
    );
  });

  it.each([
    ["duration 0", { durationMinutes: 0 }],
    ["duration 31", { durationMinutes: 31 }],
    ["fractional duration", { durationMinutes: 2.5 }],
    ["channel 0", { channel: 0 }],
    ["channel 33", { channel: 33 }],
    ["fractional channel", { channel: 1.5 }],
    ["invalid date", { start: new Date("nope") }],
    ["offset beyond +14:00", { utcOffset: "+1430" }],
    ["offset beyond -12:00", { utcOffset: -721 }],
    ["offset minutes >= 60", { utcOffset: "+0260" }],
    ["file name without .mp4", { fileName: "clip.avi" }],
    ["file name with a path", { fileName: "../x.mp4" }],
    ["file name with a slash", { fileName: "a/b.mp4" }],
    ["device id with @", { deviceid: "D1@2" }],
    ["device id with /", { deviceid: "D1/x" }],
    ["unknown field", { channels: [1, 2] }],
  ])("refuses %s before any request", (_label, override) => {
    const request = { deviceid: "D1", channel: 1, durationMinutes: 5, start, ...override };
    expect(() => client.playbackUrl(request as Parameters<typeof client.playbackUrl>[0])).toThrow(
      DeviceCloudInvalidArgumentError,
    );
  });
});

describe("client configuration", () => {
  it.each([
    ["a non-http URL", { baseUrl: "ftp://cloud.example" }],
    ["credentials in the URL", { baseUrl: "https://user:secret@cloud.example" }],
    ["a negative time-out", { baseUrl: "https://cloud.example", timeoutMs: -1 }],
    ["too many attempts", { baseUrl: "https://cloud.example", retry: { maxAttempts: 50 } }],
  ])("refuses %s with a typed error that does not echo it", (_label, settings) => {
    let error: unknown;
    try {
      new DeviceCloudClient({ ...settings, credentials: { username: "u", password: "p" } });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DeviceCloudInvalidArgumentError);
    expect((error as Error).message).toMatch(/^device cloud client configuration: invalid argument: /);
    expect((error as Error).message).not.toContain("secret");
  });
});
