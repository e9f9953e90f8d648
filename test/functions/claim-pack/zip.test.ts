import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import {
  type BagSource,
  BagSourceError,
  openFolderBag,
  readAll,
  verifyBag,
} from "@fleet-alerts/core/evidence";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ZipFile } from "yazl";
import { openZipBag } from "../../../packages/functions/src/claim-pack/zip-source.js";
import { zipBag } from "../../../packages/functions/src/claim-pack/zip-writer.js";
import { type BagFixture, writeBagFixture } from "../../support/bag-fixture.js";

const TOP = "claim-east-1000123-overspeed";
let dir: string;
let fixture: BagFixture;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "bag-zip-"));
  fixture = await writeBagFixture(join(dir, TOP));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Zips folders of `dir` with the system's zip (stored, links kept as links): a zip not made by yazl. */
async function systemZip(name: string, ...paths: string[]): Promise<string> {
  const zip = join(dir, name);
  await promisify(execFile)("zip", ["-0", "-r", "-y", "-q", zip, ...paths], { cwd: dir });
  return zip;
}

async function withZip<T>(zip: string, use: (source: BagSource) => Promise<T>): Promise<T> {
  const source = await openZipBag(zip);
  try {
    return await use(source);
  } finally {
    await source.close();
  }
}

describe("a zip as a bag source", () => {
  it("reads the bag under its one top folder, stripped, and finds it intact", async () => {
    const zip = await systemZip("claim.zip", TOP);
    await withZip(zip, async (source) => {
      expect(source.files.map(({ path }) => path)).toEqual(fixture.files);
      expect(Buffer.from(await source.read("data/ch2.mp4"))).toEqual(
        Buffer.from(fixture.payload.get("data/ch2.mp4") ?? []),
      );
      expect((await verifyBag(source)).problems).toEqual([]);
    });
  });

  it("names the clip whose byte was changed inside the zip", async () => {
    const zip = await systemZip("claim.zip", TOP);
    const bytes = await readFile(zip);
    // Stored, not deflated: the clip's bytes are in the zip as they are.
    const clip = fixture.payload.get("data/ch1.mp4") ?? new Uint8Array();
    const at = bytes.indexOf(clip) + 2_500;
    expect(at).toBeGreaterThan(2_500);
    bytes[at] = (bytes[at] ?? 0) ^ 0xff;
    await writeFile(zip, bytes);
    const problems = await withZip(zip, async (source) => (await verifyBag(source)).problems);
    expect(problems.map(({ kind, path }) => `${kind} ${path}`)).toEqual(["hash-mismatch data/ch1.mp4"]);
  });

  it("refuses a zip whose files are not all under one top folder", async () => {
    await mkdir(join(dir, "other"));
    await writeFile(join(dir, "other/notes.txt"), "beside the bag");
    const zip = await systemZip("two-tops.zip", TOP, "other");
    await expect(openZipBag(zip)).rejects.toThrow(BagSourceError);
    await expect(openZipBag(zip)).rejects.toThrow(
      /must hold the bag under one top folder: other\/ is not under claim-east-1000123-overspeed\//,
    );
    const flat = join(dir, "flat.zip");
    await promisify(execFile)("zip", ["-q", "-r", flat, "."], { cwd: join(dir, TOP) });
    await expect(openZipBag(flat)).rejects.toThrow(/must hold the bag under one top folder/);
  });

  it("refuses a zip holding a symbolic link, and one that names a file twice", async () => {
    await symlink("/etc/hostname", join(dir, TOP, "data/link.txt"));
    const linked = await systemZip("linked.zip", TOP);
    await expect(openZipBag(linked)).rejects.toThrow(`${TOP}/data/link.txt is a symbolic link`);

    const twice = new ZipFile();
    twice.addBuffer(Buffer.from("one"), `${TOP}/bagit.txt`);
    twice.addBuffer(Buffer.from("two"), `${TOP}/bagit.txt`);
    twice.end();
    await pipeline(twice.outputStream, createWriteStream(join(dir, "twice.zip")));
    await expect(openZipBag(join(dir, "twice.zip"))).rejects.toThrow(`holds ${TOP}/bagit.txt twice`);
  });

  it("refuses what is not a zip", async () => {
    await expect(openZipBag(join(dir, TOP, "bagit.txt"))).rejects.toThrow(/is not a zip that can be read/);
  });
});

describe("zipBag", () => {
  it("writes every file of the bag under the top folder, byte for byte, and the zip verifies", async () => {
    const folder = await openFolderBag(join(dir, TOP));
    await pipeline(zipBag(folder, "top"), createWriteStream(join(dir, "out.zip")));
    const listing = await promisify(execFile)("unzip", ["-Z1", join(dir, "out.zip")]);
    expect(listing.stdout.trim().split("\n").sort()).toEqual(fixture.files.map((path) => `top/${path}`));
    await withZip(join(dir, "out.zip"), async (source) => {
      for (const file of fixture.files)
        expect(Buffer.from(await readAll(await source.open(file))), file).toEqual(
          await readFile(join(dir, TOP, file)),
        );
      expect((await verifyBag(source)).problems).toEqual([]);
    });
  });

  it("fails, rather than waits, when a file's stream fails midway", async () => {
    const folder = await openFolderBag(join(dir, TOP));
    const failing: BagSource = {
      ...folder,
      open: async (path) =>
        path === "data/ch2.mp4"
          ? Readable.from(
              (async function* () {
                yield Buffer.from("the first bytes");
                throw new Error("connection reset");
              })(),
            )
          : folder.open(path),
    };
    await expect(pipeline(zipBag(failing, "top"), createWriteStream(join(dir, "out.zip")))).rejects.toThrow(
      "connection reset",
    );
  });
});
