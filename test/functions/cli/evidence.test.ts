import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { type Simulator, start } from "@fleet-alerts/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { progressMeter } from "../../../packages/functions/src/cli/progress.js";
import { DEMO_PASSWORD_HASH, deviceCloudEnv, fleetAlerts } from "./run.js";

let simulator: Simulator;
let deviceid: string;
let dir: string;
const AT = "2026-01-04T23:30:00Z";

beforeAll(async () => {
  simulator = await start({ seed: 4, devices: 3, historyHours: 2 });
  deviceid = simulator.control.devices()[0]?.deviceid ?? "";
  // Recorded around AT whatever the seed did.
  simulator.control.setRecording(
    deviceid,
    new Date("2026-01-04T23:00:00Z"),
    new Date("2026-01-05T00:00:00Z"),
    1,
  );
  dir = await mkdtemp(join(tmpdir(), "cli-evidence-"));
});
afterAll(async () => {
  await simulator.close();
  await rm(dir, { recursive: true, force: true });
});

const fetchClip = (out: string, ...args: string[]) =>
  fleetAlerts(
    [
      "evidence",
      "fetch",
      "--device",
      deviceid,
      "--at",
      AT,
      "--channel",
      "1",
      "--out",
      join(dir, out),
      ...args,
    ],
    { env: deviceCloudEnv(simulator) },
  );

async function sha256(bytes: Uint8Array): Promise<string> {
  return createHash("sha256").update(bytes).digest("hex");
}

describe("fleet-alerts evidence fetch", () => {
  it("writes the verified clip and prints its path, size, SHA-256 and duration", async () => {
    const run = await fetchClip("clip.mp4");
    expect(run.code).toBe(0);
    // 30 s before and after: one minute from 23:29:30 UTC.
    expect(run.stderr).toBe(`Downloading channel 1 of ${deviceid}: 1 min from 2026-01-04T23:29:30+0000\n`);

    const file = await readFile(join(dir, "clip.mp4"));
    const served = await fetch(
      `${simulator.url}/dlplayback/${deviceid}@1/1/${encodeURIComponent("2026-01-04T23:29:30+0000")}/demo/${DEMO_PASSWORD_HASH}`,
    );
    const servedSha256 = await sha256(new Uint8Array(await served.arrayBuffer()));
    expect(await sha256(file)).toBe(servedSha256);
    expect(run.stdout).toBe(
      `file      ${join(dir, "clip.mp4")}\n` +
        `bytes     ${file.length}\n` +
        `sha256    ${servedSha256}\n` +
        "duration  60.000 s\n",
    );
    expect(simulator.control.playbacks[0]).toMatchObject({
      deviceid,
      channel: 1,
      durationMinutes: 1,
      start: new Date("2026-01-04T23:29:30Z"),
      totalBytes: file.length,
    });
    expect(await readdir(dir)).toEqual(["clip.mp4"]);
  });

  it("leaves no file when the download is cut short", async () => {
    simulator.control.faults.add({ endpoint: "dlplayback", kind: "playbackCut", cutAfterBytes: 100_000 });
    try {
      const run = await fetchClip("cut.mp4", "--before", "60", "--after", "120");
      expect(run).toMatchObject({ code: 1, stdout: "" });
      expect(run.stderr).toContain("3 min from 2026-01-04T23:29:00+0000");
      // Up to 100000 bytes: the connection is dropped with some of them possibly still in flight.
      expect(run.stderr).toMatch(
        /\nfleet-alerts: device cloud playback .*: stream ended after \d+ of \d+ bytes\n$/,
      );
      expect((await readdir(dir)).filter((name) => name.startsWith("cut"))).toEqual([]);
    } finally {
      simulator.control.faults.clear();
    }
  });

  it("refuses more than 30 minutes, an existing file and a bad offset before downloading", async () => {
    simulator.control.resetRequests();
    const [tooLong, exists, offset] = await Promise.all([
      fetchClip("long.mp4", "--before", "900", "--after", "901"),
      fetchClip("clip.mp4"),
      fetchClip("offset.mp4", "--utc-offset", "+2500"),
    ]);
    expect(tooLong).toMatchObject({ code: 1, stdout: "" });
    expect(tooLong.stderr).toBe(
      "fleet-alerts: --before plus --after is 1801 s: at most 1800 s (30 minutes, the longest playback " +
        "the service serves) can be fetched at once\n",
    );
    expect(exists.stderr).toBe(
      `fleet-alerts: ${join(dir, "clip.mp4")} exists: choose another --out or remove it\n`,
    );
    expect(offset.code).toBe(1);
    expect(offset.stderr).toContain("'+2500' is invalid. expected an offset such as +0000, +0530 or -03:30");
    expect(simulator.control.requests).toEqual([]);
  });
});

describe("the download's progress meter", () => {
  const chunks = () => Readable.from([Buffer.alloc(400), Buffer.alloc(600)]);
  const output = (isTTY: boolean) => {
    const written: string[] = [];
    return { isTTY, written, write: (text: string) => written.push(text) > 0 };
  };

  it("redraws one line of bytes and share on a terminal, and ends it", async () => {
    const terminal = output(true);
    await pipeline(chunks(), progressMeter(1000, terminal), async (source) => {
      for await (const _chunk of source);
    });
    expect(terminal.written.at(0)).toBe("\r0.0 MB / 0.0 MB (40 %)\x1b[K");
    expect(terminal.written.slice(-2)).toEqual(["\r0.0 MB / 0.0 MB (100 %)\x1b[K", "\n"]);
  });

  it("shows nothing when stderr is not a terminal", async () => {
    const log = output(false);
    await pipeline(chunks(), progressMeter(1000, log), async (source) => {
      for await (const _chunk of source);
    });
    expect(log.written).toEqual([]);
  });
});
