import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Simulator } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planMp4 } from "../../packages/simulator/src/mp4.js";
import { clipUrl, DEMO, type ErrorBody, playbackTimestamp, startSmall } from "./helpers.js";

interface Box {
  type: string;
  start: number;
  headerSize: number;
  size: number;
}

/** Top-level (or nested, within [from, to)) ISO BMFF boxes, with 64-bit largesize support. */
function boxes(buffer: Buffer, from = 0, to = buffer.length): Box[] {
  const found: Box[] = [];
  for (let at = from; at < to; ) {
    const size32 = buffer.readUInt32BE(at);
    const type = buffer.toString("latin1", at + 4, at + 8);
    const headerSize = size32 === 1 ? 16 : 8;
    const size = size32 === 1 ? Number(buffer.readBigUInt64BE(at + 8)) : size32;
    found.push({ type, start: at, headerSize, size });
    at += size;
  }
  return found;
}

function child(buffer: Buffer, parent: Box, type: string): Box {
  const found = boxes(buffer, parent.start + parent.headerSize, parent.start + parent.size).find(
    (box) => box.type === type,
  );
  if (!found) throw new Error(`no ${type} in ${parent.type}`);
  return found;
}

/** The boxes inside `parent`, one level down per type: path(body, moov, "trak", "mdia"). */
function path(buffer: Buffer, parent: Box, ...types: string[]): Box {
  return types.reduce((box, type) => child(buffer, box, type), parent);
}

/** What the sample tables say about the video track, read straight from the boxes. */
function videoTrack(body: Buffer) {
  const [, moov, mdat] = boxes(body) as [Box, Box, Box];
  const tkhd = path(body, moov, "trak", "tkhd");
  const mdhd = path(body, moov, "trak", "mdia", "mdhd");
  const stbl = path(body, moov, "trak", "mdia", "minf", "stbl");
  const stsd = child(body, stbl, "stsd");
  const entry = boxes(body, stsd.start + 16, stsd.start + stsd.size)[0] as Box;
  const stts = child(body, stbl, "stts");
  const timeRuns = Array.from({ length: body.readUInt32BE(stts.start + 12) }, (_, index) => ({
    count: body.readUInt32BE(stts.start + 16 + 8 * index),
    delta: body.readUInt32BE(stts.start + 20 + 8 * index),
  }));
  const stsz = child(body, stbl, "stsz");
  const sampleSizes = Array.from({ length: body.readUInt32BE(stsz.start + 16) }, (_, index) =>
    body.readUInt32BE(stsz.start + 20 + 4 * index),
  );
  const stss = child(body, stbl, "stss");
  const stco = child(body, stbl, "stco");
  return {
    mdat,
    trackSize: [body.readUInt32BE(tkhd.start + 84) >>> 16, body.readUInt32BE(tkhd.start + 88) >>> 16],
    trackDurationMs: body.readUInt32BE(tkhd.start + 28),
    media: { timescale: body.readUInt32BE(mdhd.start + 20), duration: body.readUInt32BE(mdhd.start + 24) },
    sampleEntry: {
      type: entry.type,
      size: [body.readUInt16BE(entry.start + 32), body.readUInt16BE(entry.start + 34)],
      // An avc1 entry's own fields take 78 bytes; its avcC (SPS and PPS) follows.
      config: boxes(body, entry.start + 8 + 78, entry.start + entry.size).map((box) => box.type),
    },
    timeRuns,
    sampleSizes,
    firstSyncSample: body.readUInt32BE(stss.start + 16),
    chunkOffsets: Array.from({ length: body.readUInt32BE(stco.start + 12) }, (_, index) =>
      body.readUInt32BE(stco.start + 16 + 4 * index),
    ),
  };
}

/** NAL unit types of one sample (4-byte length prefixes, as the avcC of these clips says). */
function nalTypes(sample: Buffer): number[] {
  const types: number[] = [];
  for (let at = 0; at + 4 < sample.length; at += 4 + sample.readUInt32BE(at)) {
    types.push((sample[at + 4] as number) & 0x1f);
  }
  return types;
}

describe("playback download", () => {
  let simulator: Simulator;
  let deviceid: string;
  let channels: number;
  let recordedMs: number;

  beforeAll(async () => {
    simulator = await startSmall({ devices: 3, bitrateBitsPerSecond: [256_000, 128_000] });
    const device = simulator.control.devices().find((candidate) => candidate.channels >= 3);
    if (!device) throw new Error("the fixture needs a device with 3 or more channels");
    deviceid = device.deviceid;
    channels = device.channels;
    // The start of the last normal recording of at least 2 minutes.
    const entry = simulator.control
      .recordings(deviceid)
      .filter((candidate) => candidate.type === 0 && candidate.end - candidate.start >= 120)
      .at(-1);
    recordedMs = (entry?.start ?? 0) * 1000;
  });
  afterAll(() => simulator.close());

  it("streams a structurally valid MP4 whose boxes match the request", async () => {
    const response = await fetch(
      clipUrl(simulator, {
        deviceid,
        chs: "2",
        duration: 2,
        timestamp: playbackTimestamp(recordedMs, 330),
        fileName: "clip 1.mp4",
      }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("video/mp4");
    expect(response.headers.get("content-disposition")).toBe("attachment; filename*=UTF-8''clip%201.mp4");
    const body = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(body.length);

    const top = boxes(body);
    expect(top.map((box) => box.type)).toEqual(["ftyp", "moov", "mdat"]);
    expect(top.reduce((sum, box) => sum + box.size, 0)).toBe(body.length);
    const [ftyp, moov, mdat] = top as [Box, Box, Box];
    expect(body.toString("latin1", ftyp.start + 8, ftyp.start + 12)).toBe("isom");
    const mvhd = child(body, moov, "mvhd");
    const timescale = body.readUInt32BE(mvhd.start + 20);
    const duration = body.readUInt32BE(mvhd.start + 24);
    expect([timescale, duration]).toEqual([1000, 2 * 60_000]);
    expect(child(body, child(body, moov, "trak"), "mdia").size).toBeGreaterThan(0);
    // Channel 2 has its own bitrate: 128 kbit/s for 120 s.
    expect(mdat.size - mdat.headerSize).toBe((128_000 / 8) * 120);
    expect(simulator.control.playbacks.at(-1)).toMatchObject({
      deviceid,
      channel: 2,
      durationMinutes: 2,
      start: new Date(recordedMs),
      totalBytes: body.length,
      bytesWritten: body.length,
      aborted: false,
      cut: false,
    });
  });

  it("carries 320×240 H.264 video that lasts the requested minutes, at the start of mdat", async () => {
    const response = await fetch(
      clipUrl(simulator, { deviceid, chs: "1", duration: 2, timestamp: playbackTimestamp(recordedMs, 60) }),
    );
    const body = Buffer.from(await response.arrayBuffer());
    const track = videoTrack(body);
    expect(track.trackSize).toEqual([320, 240]);
    expect(track.sampleEntry).toEqual({ type: "avc1", size: [320, 240], config: ["avcC"] });
    expect(track.trackDurationMs).toBe(120_000);
    expect(track.media).toEqual({ timescale: 1000, duration: 120_000 });
    // One frame a second for two minutes.
    expect(track.timeRuns).toEqual([{ count: 120, delta: 1000 }]);
    expect(track.sampleSizes).toHaveLength(120);
    // All samples in one chunk, first in mdat; the padding after them belongs to no sample.
    expect(track.chunkOffsets).toEqual([track.mdat.start + track.mdat.headerSize]);
    const videoBytes = track.sampleSizes.reduce((sum, size) => sum + size, 0);
    expect(videoBytes).toBeLessThan(track.mdat.size - track.mdat.headerSize);
    expect(track.firstSyncSample).toBe(1);
    const first = body.subarray(
      track.chunkOffsets[0],
      (track.chunkOffsets[0] as number) + (track.sampleSizes[0] as number),
    );
    expect(nalTypes(first)).toContain(5); // an IDR picture
  });

  it("draws the clock in the offset the request was written in", async () => {
    const clip = async (offsetMinutes: number) => {
      const response = await fetch(
        clipUrl(simulator, {
          deviceid,
          chs: "1",
          duration: 1,
          timestamp: playbackTimestamp(recordedMs, offsetMinutes),
        }),
      );
      return Buffer.from(await response.arrayBuffer());
    };
    const parts = (body: Buffer) => {
      const track = videoTrack(body);
      const videoStart = track.chunkOffsets[0] as number;
      const videoEnd = videoStart + track.sampleSizes.reduce((sum, size) => sum + size, 0);
      return { video: body.subarray(videoStart, videoEnd), padding: body.subarray(videoEnd) };
    };
    const utc = await clip(0);
    const india = await clip(330);
    // The same instant, so the same size and the same padding; only the pictures differ.
    expect(india.length).toBe(utc.length);
    expect(parts(india).padding.subarray(0, 65_536)).toEqual(parts(utc).padding.subarray(0, 65_536));
    expect(parts(india).video).not.toEqual(parts(utc).video);
  });

  it("gives the same bytes for the same request, other bytes for another channel", async () => {
    const hash = async (chs: string) => {
      const response = await fetch(
        clipUrl(simulator, { deviceid, chs, duration: 1, timestamp: playbackTimestamp(recordedMs) }),
      );
      return createHash("sha256")
        .update(Buffer.from(await response.arrayBuffer()))
        .digest("hex");
    };
    const first = await hash("1");
    expect(await hash("1")).toBe(first);
    expect(await hash("4")).not.toBe(first);
  });

  it("uses channel 1 without @chs, and takes a percent-encoded @", async () => {
    const plain = await fetch(
      clipUrl(simulator, { deviceid, duration: 1, timestamp: playbackTimestamp(recordedMs) }),
    );
    await plain.arrayBuffer();
    expect(plain.status).toBe(200);
    expect(simulator.control.playbacks.at(-1)?.channel).toBe(1);
    const encoded = clipUrl(simulator, {
      deviceid,
      chs: "4",
      duration: 1,
      timestamp: playbackTimestamp(recordedMs),
    }).replace("@", "%40");
    const response = await fetch(encoded);
    await response.arrayBuffer();
    expect(response.status).toBe(200);
    expect(simulator.control.playbacks.at(-1)?.channel).toBe(3);
  });

  it.each([
    ["selector 0", { chs: "0" }, "invalid_channel"],
    ["selector with two bits", { chs: "3" }, "invalid_channel"],
    ["selector not decimal", { chs: "0x2" }, "invalid_channel"],
    ["duration 0", { duration: 0 }, "invalid_duration"],
    ["duration 31", { duration: 31 }, "invalid_duration"],
    ["duration 2.5", { duration: "2.5" }, "invalid_duration"],
    ["timestamp without offset", { timestamp: "2026-01-04T20:00:00" }, "invalid_timestamp"],
    ["timestamp with a colon offset", { timestamp: "2026-01-04T20:00:00+05:30" }, "invalid_timestamp"],
    ["timestamp month 13", { timestamp: "2026-13-04T20:00:00+0000" }, "invalid_timestamp"],
    ["file name not .mp4", { fileName: "clip.avi" }, "invalid_file_name"],
  ])("answers 400 for a %s", async (_name, change, code) => {
    const response = await fetch(
      clipUrl(simulator, {
        deviceid,
        chs: "1",
        duration: 1,
        timestamp: playbackTimestamp(recordedMs),
        ...change,
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorBody).error).toBe(code);
  });

  it("answers 400 for a channel the device does not have, and for a short path", async () => {
    const beyond = String(2 ** channels);
    const response = await fetch(
      clipUrl(simulator, { deviceid, chs: beyond, duration: 1, timestamp: playbackTimestamp(recordedMs) }),
    );
    expect([response.status, ((await response.json()) as ErrorBody).error]).toEqual([400, "invalid_channel"]);
    const short = await fetch(`${simulator.url}/dlplayback/${deviceid}/1/${DEMO.username}`);
    expect(short.status).toBe(400);
  });

  it("answers 401 for a wrong hash and 404 for an unknown device or unrecorded time", async () => {
    const timestamp = playbackTimestamp(recordedMs);
    const wrong = await fetch(
      clipUrl(simulator, { deviceid, duration: 1, timestamp, password: DEMO.password.toLowerCase() }),
    );
    expect(wrong.status).toBe(401);
    const unknown = await fetch(clipUrl(simulator, { deviceid: "nope", duration: 1, timestamp }));
    expect(unknown.status).toBe(404);
    const gapStart = new Date(recordedMs + 30 * 60_000);
    simulator.control.setRecording(deviceid, gapStart, new Date(gapStart.getTime() + 10 * 60_000), 0);
    simulator.control.setRecording(deviceid, new Date(gapStart.getTime() - 60_000), gapStart, 1);
    const notRecorded = await fetch(
      clipUrl(simulator, { deviceid, duration: 10, timestamp: playbackTimestamp(gapStart.getTime(), -480) }),
    );
    expect([notRecorded.status, ((await notRecorded.json()) as ErrorBody).error]).toEqual([
      404,
      "no_recording",
    ]);
    const overlapping = await fetch(
      clipUrl(simulator, {
        deviceid,
        duration: 11,
        timestamp: playbackTimestamp(gapStart.getTime() - 60_000),
      }),
    );
    await overlapping.arrayBuffer();
    expect(overlapping.status).toBe(200);
  });
});

describe("a bitrate too low to hold the video", () => {
  it("makes mdat the video alone", async () => {
    const simulator = await startSmall({ devices: 1, historyHours: 1, bitrateBitsPerSecond: 8 });
    try {
      const deviceid = simulator.control.devices()[0]?.deviceid ?? "";
      const start = simulator.control.now().getTime() - 30 * 60_000;
      simulator.control.setRecording(deviceid, new Date(start), new Date(start + 60_000), 1);
      const response = await fetch(
        clipUrl(simulator, { deviceid, duration: 1, timestamp: playbackTimestamp(start) }),
      );
      const track = videoTrack(Buffer.from(await response.arrayBuffer()));
      const videoBytes = track.sampleSizes.reduce((sum, size) => sum + size, 0);
      expect(track.mdat.size - track.mdat.headerSize).toBe(videoBytes);
    } finally {
      await simulator.close();
    }
  });
});

describe("large playback clips", () => {
  let simulator: Simulator;
  let deviceid: string;
  let timestamp: string;

  beforeAll(async () => {
    simulator = await startSmall({ devices: 2, historyHours: 2, bitrateBitsPerSecond: 4_000_000 });
    deviceid = simulator.control.devices()[0]?.deviceid ?? "";
    const start = simulator.control.now().getTime() - 60 * 60_000;
    simulator.control.setRecording(deviceid, new Date(start), new Date(start + 30 * 60_000), 1);
    timestamp = playbackTimestamp(start, 60);
  });
  afterAll(() => simulator.close());

  it("holds a 30-minute clip back while the reader is paused, and stops when the reader goes", async () => {
    const response = await fetch(clipUrl(simulator, { deviceid, chs: "1", duration: 30, timestamp }));
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no body");
    const first = await reader.read();
    expect(Buffer.from(first.value ?? []).toString("latin1", 4, 8)).toBe("ftyp");
    await sleep(300);
    const record = simulator.control.playbacks.at(-1);
    const total = (4_000_000 / 8) * 1800;
    expect(record?.totalBytes).toBeGreaterThan(total);
    expect(Number(response.headers.get("content-length"))).toBe(record?.totalBytes);
    // Only what the socket buffers hold has been produced: far below the 900 MB of the clip.
    expect(record?.bytesWritten).toBeLessThan(32 * 1024 * 1024);
    await reader.cancel();
    for (let i = 0; i < 50 && !record?.aborted; i++) await sleep(10);
    expect(record).toMatchObject({ aborted: true, finished: false });
  });

  it("streams a 30-minute clip completely, to the announced length", async () => {
    // Throughput is the benchmark's business; this checks that all 900 MB arrive and end cleanly.
    const response = await fetch(clipUrl(simulator, { deviceid, chs: "1", duration: 30, timestamp }));
    const reader = response.body?.getReader();
    if (!reader) throw new Error("no body");
    let received = 0;
    for (let next = await reader.read(); !next.done; next = await reader.read())
      received += next.value.length;
    const record = simulator.control.playbacks.at(-1);
    expect(received).toBe(Number(response.headers.get("content-length")));
    expect(received).toBe(record?.totalBytes);
    expect(received).toBeGreaterThan((4_000_000 / 8) * 1800);
    expect(record).toMatchObject({ finished: true, aborted: false, bytesWritten: received });
  });

  it("uses the 64-bit mdat size when the box exceeds 2^32-1 bytes", () => {
    // Only the sizes of the video matter here: one 100-byte frame lasting the 30 minutes.
    const video = {
      sampleDescription: Buffer.alloc(0),
      samples: Buffer.alloc(100),
      sampleSizes: [100],
      syncSamples: [0],
      sampleDurationsMs: [30 * 60_000],
    };
    const plan = planMp4({
      video,
      bitrateBitsPerSecond: 20_000_000,
      startMs: 0,
      seed: 1,
      contentKey: ["d", 1],
    });
    const payload = (20_000_000 / 8) * 1800;
    expect(plan.video.length + plan.paddingBytes).toBe(payload);
    const mdatHeader = plan.header.subarray(-16);
    expect(mdatHeader.readUInt32BE(0)).toBe(1);
    expect(mdatHeader.toString("latin1", 4, 8)).toBe("mdat");
    expect(Number(mdatHeader.readBigUInt64BE(8))).toBe(16 + payload);
    expect(plan.totalBytes).toBe(plan.header.length + payload);
  });

  it("ends in-flight playback streams on close()", async () => {
    const own = await startSmall({ devices: 1, historyHours: 1 });
    const id = own.control.devices()[0]?.deviceid ?? "";
    const start = own.control.now().getTime() - 30 * 60_000;
    own.control.setRecording(id, new Date(start), new Date(start + 60_000), 1);
    const response = await fetch(
      clipUrl(own, { deviceid: id, duration: 30, timestamp: playbackTimestamp(start) }),
    );
    const reader = response.body?.getReader();
    await reader?.read();
    await own.close();
    await expect(
      (async () => {
        for (;;) if ((await reader?.read())?.done) return "complete";
      })(),
    ).rejects.toThrow();
  });
});
