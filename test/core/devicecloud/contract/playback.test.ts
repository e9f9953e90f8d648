import { createHash } from "node:crypto";
import {
  DeviceCloudHttpError,
  DeviceCloudInvalidArgumentError,
  type PlaybackRequestInput,
} from "@fleet-alerts/core/devicecloud";
import type { Simulator } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inspectMp4 } from "../../../support/mp4.js";
import { startContract } from "./harness.js";

const BITRATES = [256_000, 512_000, 1_000_000, 2_000_000];
let simulator: Simulator;
let client: Awaited<ReturnType<typeof startContract>>["client"];
let deviceid: string;
let recordedFrom: Date;

beforeAll(async () => {
  const contract = await startContract({
    seed: 1,
    devices: 6,
    historyHours: 2,
    bitrateBitsPerSecond: BITRATES,
  });
  simulator = contract.simulator;
  client = contract.client;
  const device = simulator.control.devices().find((candidate) => candidate.channels >= 4);
  if (!device) throw new Error("the seeded fleet has no device with 4 channels");
  deviceid = device.deviceid;
  recordedFrom = new Date("2026-01-04T23:00:00Z");
  // Make the hour before the clock start recorded, whatever the seed generated.
  simulator.control.setRecording(deviceid, recordedFrom, new Date("2026-01-05T00:00:00Z"), 1);
});
afterAll(() => simulator.close());

const lastPlayback = () => simulator.control.playbacks.at(-1);

describe("playback download against the simulator", () => {
  it("streams a valid MP4 of the requested channel, start and duration, byte for byte", async () => {
    const request: PlaybackRequestInput = {
      deviceid,
      channel: 3,
      durationMinutes: 2,
      start: recordedFrom,
      utcOffset: "+0530",
    };
    const download = await client().downloadPlayback(request);
    expect(download.request.timestamp).toBe("2026-01-05T04:30:00+0530");
    const clip = await inspectMp4(download.body);
    const served = lastPlayback();
    // The simulator understood the selector, the offset and the duration as meant.
    expect(served).toMatchObject({
      deviceid,
      channel: 3,
      durationMinutes: 2,
      finished: true,
      aborted: false,
    });
    expect(served?.start.toISOString()).toBe(recordedFrom.toISOString());
    expect(clip.boxes.map((box) => box.type)).toEqual(["ftyp", "moov", "mdat"]);
    expect(clip.durationMs).toBe(120_000);
    const mdat = clip.boxes.find((box) => box.type === "mdat");
    expect((mdat?.size ?? 0) - 8).toBe(((BITRATES[2] as number) / 8) * 120);
    expect(clip.totalBytes).toBe(download.contentLength);
    expect(clip.totalBytes).toBe(served?.totalBytes);
    // Same request, same bytes.
    const again = await inspectMp4((await client().downloadPlayback(request)).body);
    expect(again.sha256).toBe(clip.sha256);
  });

  it("hands over the first bytes before the simulator has produced the last ones", async () => {
    const download = await client().downloadPlayback({
      deviceid,
      channel: 4,
      durationMinutes: 30,
      start: recordedFrom,
    });
    const iterator = (download.body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    const served = lastPlayback();
    expect(served?.totalBytes).toBe(download.contentLength);
    // 30 minutes at 2 Mbit/s is 450 MB; with the reader paused the simulator is held back by
    // backpressure, so it has produced only what the socket buffers hold.
    expect(served?.bytesWritten).toBeLessThan((served?.totalBytes ?? 0) / 10);
    const hash = createHash("sha256").update(first.value as Buffer);
    let received = (first.value as Buffer).length;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      hash.update(next.value);
      received += next.value.length;
    }
    const expectedPayload = ((BITRATES[3] as number) / 8) * 30 * 60;
    expect(received).toBe(served?.totalBytes);
    expect(received).toBeGreaterThan(expectedPayload);
    expect(received - expectedPayload).toBeLessThan(4_096); // ftyp + moov + mdat header only
    expect(served).toMatchObject({ finished: true, bytesWritten: received });
  });

  it("gets a 404 for minutes that are not recorded", async () => {
    const error = await client()
      .downloadPlayback({ deviceid, channel: 1, durationMinutes: 1, start: new Date("2025-06-01T00:00:00Z") })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeviceCloudHttpError);
    expect(error).toMatchObject({ status: 404, retryable: false });
  });

  it("validates every rule before sending anything", async () => {
    simulator.control.resetRequests();
    const base = { deviceid, channel: 1, durationMinutes: 5, start: recordedFrom };
    const invalid: Record<string, unknown>[] = [
      { durationMinutes: 0 },
      { durationMinutes: 31 },
      { durationMinutes: 1.5 },
      { channel: 0 },
      { channel: [1, 2] },
      { start: new Date(Number.NaN) },
      { utcOffset: "+2500" },
      { fileName: "clip.mov" },
      { fileName: "../../etc/passwd.mp4" },
    ];
    for (const override of invalid) {
      await expect(
        client().downloadPlayback({ ...base, ...override } as PlaybackRequestInput),
        JSON.stringify(override),
      ).rejects.toBeInstanceOf(DeviceCloudInvalidArgumentError);
    }
    expect(simulator.control.requests).toHaveLength(0);
  });

  it("the simulator itself refuses what the client would never send (400)", async () => {
    const { url } = client().playbackUrl({ deviceid, channel: 1, durationMinutes: 5, start: recordedFrom });
    const tamper = (from: string, to: string) => fetch(url.toString().replace(from, to));
    expect((await tamper(`${deviceid}@1/5/`, `${deviceid}@1/31/`)).status).toBe(400);
    expect((await tamper(`${deviceid}@1/5/`, `${deviceid}@1/0/`)).status).toBe(400);
    expect((await tamper(`${deviceid}@1/`, `${deviceid}@3/`)).status).toBe(400); // two channels
    expect((await tamper("%2B0000", "Z")).status).toBe(400);
  });
});
