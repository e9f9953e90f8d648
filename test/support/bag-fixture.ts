import { createHash } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";

/*
 * A tiny claim-pack bag writer for the tests, written from the format's description alone: it
 * shares no code with the production writer or the verifier, so that each checks the other.
 */

export const FIXTURE_ALERT_ID = "east:1000123:overspeed";

export interface BagFixtureOptions {
  /** More payload files, by path from the bag root (`data/...`); any name, CR, LF and `%` included. */
  extraPayload?: Record<string, Uint8Array>;
  /** The bytes to store as tagmanifest-sha256.txt.tsr (with a timestamp.html beside it). */
  timestampToken?: Uint8Array;
}

export interface BagFixture {
  root: string;
  /** Every payload file by path from the bag root, with its bytes. */
  payload: Map<string, Uint8Array>;
  payloadOctets: number;
  /** Every file written, by path from the bag root. */
  files: string[];
}

const BAG_INFO = [
  "Source-Organization: Example Fleet Ltd",
  `External-Identifier: ${FIXTURE_ALERT_ID}`,
  "External-Description: OverSpeed, device 0042, 2026-01-05T08:30:00Z",
  "Bagging-Date: 2026-01-05",
  "Bag-Software-Agent: fleet-alerts test-fixture",
];

/** Writes a complete bag into `root`: two small fake clips, the event, a track, and every tag file. */
export async function writeBagFixture(root: string, options: BagFixtureOptions = {}): Promise<BagFixture> {
  const payload = new Map<string, Uint8Array>([
    ["data/ch1.mp4", fakeClip(1, 5_000)],
    ["data/ch2.mp4", fakeClip(2, 3_001)],
    ["data/event.json", utf8('{"serialno":"1000123","appdevid":13,"deviceid":"0042"}\n')],
    ["data/track.geojson", utf8('{"type":"FeatureCollection","features":[]}\n')],
    ...Object.entries(options.extraPayload ?? {}),
  ]);
  const payloadOctets = [...payload.values()].reduce((sum, bytes) => sum + bytes.length, 0);
  const tagFiles = new Map<string, Uint8Array>([
    ["bagit.txt", utf8("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n")],
    ["bag-info.txt", utf8(`${[...BAG_INFO, `Payload-Oxum: ${payloadOctets}.${payload.size}`].join("\n")}\n`)],
    ["manifest-sha256.txt", manifestOf(payload)],
    ["manifest.json", utf8('{"alertId":"east:1000123:overspeed","clips":[]}\n')],
    ["report.html", utf8('<!doctype html><title>Claim</title><video src="data/ch1.mp4"></video>\n')],
  ]);
  const written = new Map([...payload, ...tagFiles, ["tagmanifest-sha256.txt", manifestOf(tagFiles)]]);
  if (options.timestampToken) {
    written.set("tagmanifest-sha256.txt.tsr", options.timestampToken);
    written.set("timestamp.html", utf8("<!doctype html><title>Time stamp</title>\n"));
  }
  for (const [path, bytes] of written) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), bytes);
  }
  return { root, payload, payloadOctets, files: [...written.keys()].sort() };
}

/** `<sha256>  <path>` lines, sorted by path, with CR, LF and `%` in a path percent-encoded. */
function manifestOf(files: ReadonlyMap<string, Uint8Array>): Uint8Array {
  const lines = [...files.keys()]
    .sort()
    .map((path) => `${sha256Hex(files.get(path) ?? new Uint8Array())}  ${encodePath(path)}\n`);
  return utf8(lines.join(""));
}

function encodePath(path: string): string {
  return path.replaceAll("%", "%25").replaceAll("\r", "%0D").replaceAll("\n", "%0A");
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Bytes that differ from clip to clip: not a real MP4, which a bag does not care about. */
function fakeClip(seed: number, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  let state = seed;
  for (let index = 0; index < size; index++) {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    bytes[index] = state >>> 16;
  }
  return bytes;
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}
