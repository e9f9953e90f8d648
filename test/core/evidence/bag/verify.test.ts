import { execFile } from "node:child_process";
import {
  appendFile,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  symlink,
  truncate,
  unlink,
  writeFile,
} from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
  type BagSource,
  BagSourceError,
  openFolderBag,
  type TimestampChecker,
  type VerifyBagOptions,
  verifyBag,
} from "@fleet-alerts/core/evidence";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_TAG_FILE_BYTES } from "../../../../packages/core/src/evidence/bag/inspection.js";
import { type BagFixtureOptions, sha256Hex, writeBagFixture } from "../../../support/bag-fixture.js";

let dir: string;
let root: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "bag-verify-"));
  root = join(dir, "bag");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const bag = (options?: BagFixtureOptions) => writeBagFixture(root, options);

async function verify(options?: VerifyBagOptions) {
  const source = await openFolderBag(root);
  try {
    return await verifyBag(source, options);
  } finally {
    await source.close();
  }
}

/** `<kind> <path>` of each problem, in order: what a test can state exactly. */
async function problems(options?: VerifyBagOptions): Promise<string[]> {
  return (await verify(options)).problems.map(({ kind, path }) => `${kind} ${path ?? "-"}`);
}

async function edit(path: string, change: (text: string) => string): Promise<void> {
  await writeFile(join(root, path), change(await readFile(join(root, path), "utf8")));
}

/** `sha256sum -c`, run in the bag root: the system's own reading of a manifest. */
async function sha256sumCheck(manifest: string): Promise<{ ok: boolean; output: string }> {
  return promisify(execFile)("sha256sum", ["-c", manifest], { cwd: root }).then(
    ({ stdout }) => ({ ok: true, output: stdout }),
    (error: { stdout: string }) => ({ ok: false, output: error.stdout }),
  );
}

describe("verifyBag on a folder", () => {
  it("finds nothing wrong with an untouched bag, and sums up its payload", async () => {
    const fixture = await bag();
    const result = await verify();
    expect(result.problems).toEqual([]);
    expect(result.summary).toEqual({
      payloadFiles: 4,
      payloadOctets: fixture.payloadOctets,
      timestamp: { token: "absent" },
    });
  });

  it("reads a bag that `sha256sum -c` accepts, both manifests: the fixture is in the spec's format", async () => {
    await bag();
    const payload = await sha256sumCheck("manifest-sha256.txt");
    expect(payload).toEqual({
      ok: true,
      output: "data/ch1.mp4: OK\ndata/ch2.mp4: OK\ndata/event.json: OK\ndata/track.geojson: OK\n",
    });
    expect((await sha256sumCheck("tagmanifest-sha256.txt")).ok).toBe(true);
  });

  it("names the clip one changed byte broke, as sha256sum does, and nothing else", async () => {
    await bag();
    const clip = await readFile(join(root, "data/ch1.mp4"));
    clip[1234] = (clip[1234] ?? 0) ^ 0x01;
    await writeFile(join(root, "data/ch1.mp4"), clip);
    const result = await verify();
    expect(result.problems).toEqual([
      {
        kind: "hash-mismatch",
        path: "data/ch1.mp4",
        detail: expect.stringContaining(
          `its SHA-256 is ${sha256Hex(clip)}; manifest-sha256.txt (line 1) says `,
        ),
      },
    ]);
    expect((await sha256sumCheck("manifest-sha256.txt")).output).toContain("data/ch1.mp4: FAILED\n");
  });

  it("names the file whose manifest line was edited, and the manifest the tag manifest no longer matches", async () => {
    await bag();
    await edit("manifest-sha256.txt", (text) =>
      text.replace(/^[0-9a-f]{64}(?= {2}data\/event\.json$)/m, sha256Hex(new Uint8Array([1]))),
    );
    expect(await problems()).toEqual(["hash-mismatch data/event.json", "hash-mismatch manifest-sha256.txt"]);
  });

  it("names both files when a manifest line's path is edited: one listed and missing, one there and unlisted", async () => {
    await bag();
    await edit("manifest-sha256.txt", (text) => text.replace("data/ch2.mp4", "data/ch3.mp4"));
    expect(await problems()).toEqual([
      "missing-file data/ch3.mp4",
      "unlisted-file data/ch2.mp4",
      "hash-mismatch manifest-sha256.txt",
    ]);
  });

  it("names a removed payload file, and the Payload-Oxum it no longer adds up to", async () => {
    const { payloadOctets } = await bag();
    await unlink(join(root, "data/ch2.mp4"));
    const result = await verify();
    expect(result.problems.map(({ kind, path }) => `${kind} ${path}`)).toEqual([
      "oxum-mismatch bag-info.txt",
      "missing-file data/ch2.mp4",
    ]);
    // ch2.mp4 is 3001 bytes.
    expect(result.problems[0]?.detail).toBe(
      `Payload-Oxum says ${payloadOctets}.4; data/ holds ${payloadOctets - 3001} octets in 3 files`,
    );
  });

  it("names a file added under data/ as unlisted", async () => {
    await bag();
    await writeFile(join(root, "data/ch9.mp4"), "added later");
    expect(await problems()).toEqual(["oxum-mismatch bag-info.txt", "unlisted-file data/ch9.mp4"]);
  });

  it("names a file added at the root, or in a folder other than data/, as unexpected", async () => {
    await bag();
    await writeFile(join(root, "notes.txt"), "added later");
    await mkdir(join(root, "extra"));
    await writeFile(join(root, "extra/ch1.mp4"), "added later");
    expect(await problems()).toEqual(["unexpected-file extra/ch1.mp4", "unexpected-file notes.txt"]);
  });

  it("names an edited Payload-Oxum, and the bag-info.txt the tag manifest no longer matches", async () => {
    await bag();
    await edit("bag-info.txt", (text) => text.replace(/Payload-Oxum: \d+\.4/, "Payload-Oxum: 1.4"));
    expect(await problems()).toEqual(["oxum-mismatch bag-info.txt", "hash-mismatch bag-info.txt"]);
  });

  it("names a missing required tag file once, though the tag manifest lists it too", async () => {
    await bag();
    await unlink(join(root, "report.html"));
    expect(await problems()).toEqual(["missing-file report.html"]);
  });

  it("names a hashed tag file the tag manifest leaves out", async () => {
    await bag();
    await edit("tagmanifest-sha256.txt", (text) => text.replace(/^.* {2}report\.html\n/m, ""));
    expect(await problems()).toEqual(["unlisted-file report.html"]);
  });

  it("names a bagit.txt of another version, and a bag-info.txt without Payload-Oxum", async () => {
    await bag();
    await edit("bagit.txt", (text) => text.replace("1.0", "0.97"));
    await edit("bag-info.txt", (text) => text.replace(/Payload-Oxum: .*\n/, ""));
    const result = await verify();
    expect(result.problems.filter(({ kind }) => kind === "malformed")).toEqual([
      {
        kind: "malformed",
        path: "bagit.txt",
        detail: 'must declare "BagIt-Version: 1.0" once; it has "0.97"',
      },
      {
        kind: "malformed",
        path: "bag-info.txt",
        detail: 'must have one Payload-Oxum "<octets>.<files>"; it has none',
      },
    ]);
  });

  it("names each unreadable line, each path listed twice, and each listed path outside data/", async () => {
    await bag();
    const reportLine = (await readFile(join(root, "tagmanifest-sha256.txt"), "utf8"))
      .split("\n")
      .find((line) => line.endsWith("  report.html"));
    const firstLine = (await readFile(join(root, "manifest-sha256.txt"), "utf8")).split("\n")[0];
    await appendFile(join(root, "manifest-sha256.txt"), `garbage\n${firstLine}\n${reportLine}\n`);
    const malformed = (await verify()).problems.filter(({ kind }) => kind === "malformed");
    expect(malformed.map(({ path, detail }) => `${path}: ${detail}`)).toEqual([
      'manifest-sha256.txt: line 5 is not "<64 hex digits> <path>"',
      "manifest-sha256.txt: line 6 lists data/ch1.mp4 again",
      "manifest-sha256.txt: line 7 lists report.html, which is outside data/",
    ]);
  });

  it("refuses a tag file over MAX_TAG_FILE_BYTES without reading it whole (tag files are read whole)", async () => {
    await bag();
    const bagInfo = join(root, "bag-info.txt");
    // A sparse file: its size is all the check may look at.
    await truncate(bagInfo, MAX_TAG_FILE_BYTES + 1);
    const malformed = (await verify()).problems.filter(({ kind }) => kind === "malformed");
    expect(malformed.map(({ path, detail }) => `${path}: ${detail}`)).toEqual([
      `bag-info.txt: is ${MAX_TAG_FILE_BYTES + 1} bytes: far more than a tag file holds`,
    ]);
  });

  it("verifies payload files whose names hold CR, LF and %, percent-encoded in the manifest", async () => {
    await bag({
      extraPayload: { "data/100%.json": new Uint8Array([1]), "data/two\nlines\r.json": new Uint8Array([2]) },
    });
    expect(await readFile(join(root, "manifest-sha256.txt"), "utf8")).toContain(
      "  data/two%0Alines%0D.json\n",
    );
    const result = await verify();
    expect(result.problems).toEqual([]);
    expect(result.summary.payloadFiles).toBe(6);
  });

  it("hashes payload files as streams, and reads only tag files whole", async () => {
    const fixture = await bag();
    const folder = await openFolderBag(root);
    const opened: string[] = [];
    const read: string[] = [];
    const watched: BagSource = {
      ...folder,
      open: (path) => {
        opened.push(path);
        return folder.open(path);
      },
      read: (path) => {
        read.push(path);
        return folder.read(path);
      },
    };
    expect((await verifyBag(watched)).problems).toEqual([]);
    expect(read.filter((path) => path.startsWith("data/"))).toEqual([]);
    expect(opened).toEqual(expect.arrayContaining([...fixture.payload.keys()]));
  });
});

describe("verifyBag with a time-stamp token", () => {
  const TOKEN = new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x00]);
  const FACTS = { genTime: "2026-01-05T08:31:02Z", tsaName: "CN=Test TSA" };

  it("gives the checker the token and the tag manifest's bytes, and sums up what it found", async () => {
    await bag({ timestampToken: TOKEN });
    const calls: [Uint8Array, Uint8Array][] = [];
    const timestamp: TimestampChecker = async (response, stampedData) => {
      calls.push([response, stampedData]);
      return { problems: [], facts: FACTS };
    };
    const result = await verify({ timestamp });
    expect(result.problems).toEqual([]);
    expect(result.summary.timestamp).toEqual({ token: "checked", facts: FACTS });
    const tagManifest = await readFile(join(root, "tagmanifest-sha256.txt"));
    expect(calls).toEqual([[Buffer.from(TOKEN), tagManifest]]);
  });

  it("reports every problem the checker finds", async () => {
    await bag({ timestampToken: TOKEN });
    const result = await verify({
      timestamp: async () => ({ problems: ["the message imprint is not SHA-256(tagmanifest-sha256.txt)"] }),
    });
    expect(result.problems).toEqual([
      {
        kind: "timestamp",
        path: "tagmanifest-sha256.txt.tsr",
        detail: "the message imprint is not SHA-256(tagmanifest-sha256.txt)",
      },
    ]);
    expect(result.summary.timestamp).toEqual({ token: "checked" });
  });

  it("reports a checker that fails, and a token nothing was given to check", async () => {
    await bag({ timestampToken: TOKEN });
    const failing = await verify({
      timestamp: async () => {
        throw new Error("not DER");
      },
    });
    expect(failing.problems.map(({ detail }) => detail)).toEqual(["could not be checked: not DER"]);
    const unchecked = await verify();
    expect(unchecked.problems).toEqual([
      {
        kind: "timestamp",
        path: "tagmanifest-sha256.txt.tsr",
        detail: "is a time-stamp token, and nothing was given to check it",
      },
    ]);
    expect(unchecked.summary.timestamp).toEqual({ token: "not-checked" });
  });
});

describe("a folder as a bag source", () => {
  it("follows a symbolic link to a file in the bag, and refuses one out of it", async () => {
    await bag();
    await symlink(join(root, "report.html"), join(root, "data/linked.html"));
    expect((await openFolderBag(root)).files.map(({ path }) => path)).toContain("data/linked.html");
    await writeFile(join(dir, "outside.txt"), "not in the bag");
    await symlink(join(dir, "outside.txt"), join(root, "data/escape.txt"));
    await expect(openFolderBag(root)).rejects.toThrow(BagSourceError);
    await expect(openFolderBag(root)).rejects.toThrow(/data\/escape\.txt is a symbolic link out of the bag/);
  });

  it("opens only the files it listed", async () => {
    await bag();
    await writeFile(join(dir, "outside.txt"), "not in the bag");
    const source = await openFolderBag(root);
    await expect(source.read("../outside.txt")).rejects.toThrow(BagSourceError);
    await expect(source.open("../outside.txt")).rejects.toThrow(BagSourceError);
  });
});
