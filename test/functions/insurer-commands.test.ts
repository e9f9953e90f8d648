import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { bagFolderName } from "@fleet-alerts/core/evidence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EvidenceHarness, startEvidenceHarness } from "../support/evidence-harness.js";
import { type OpensslTsa, startOpensslTsa } from "../support/openssl-tsa.js";
import { runCommand } from "../support/run-script.js";
import { fleetAlerts } from "./cli/run.js";

const run = promisify(execFile);

/*
 * docs/insurers.md tells an insurer how to check a claim pack with sha256sum and openssl alone. This
 * runs that very block, as written, in a stamped pack made as a stage makes one, so that the guide
 * cannot drift from what the packs need.
 */
const MARKER = "<!-- insurer-commands";

async function insurerCommands(): Promise<string> {
  const guide = await readFile("docs/insurers.md", "utf8");
  const block = /```sh\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf(MARKER)))?.[1];
  if (!guide.includes(MARKER) || block === undefined) throw new Error("docs/insurers.md: no marked sh block");
  return block;
}

/** The block run by bash in `folder`; a failing command is an exit status, not a thrown error. */
const runIn = (folder: string, commands: string) => runCommand("bash", ["-c", commands], {}, folder);

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/** Replaces a file's line in a `<sha256>  <path>` manifest with the file's digest as it is now. */
async function relist(folder: string, manifest: string, file: string) {
  const digest = sha256(await readFile(join(folder, file)));
  const text = await readFile(join(folder, manifest), "utf8");
  await writeFile(
    join(folder, manifest),
    text.replace(new RegExp(`^[0-9a-f]{64}  ${file.replaceAll(".", "\\.")}$`, "m"), `${digest}  ${file}`),
  );
}

let harness: EvidenceHarness;
let tsa: OpensslTsa;
let dir: string;
let folder: string;
let commands: string;

beforeAll(async () => {
  commands = await insurerCommands();
  tsa = await startOpensslTsa();
  harness = await startEvidenceHarness({
    bitrateBitsPerSecond: 128_000,
    env: { TSA_URL: tsa.url, TSA_TIMEOUT_MS: "1000" },
  });
  dir = await mkdtemp(join(tmpdir(), "fleet-alerts-insurer-"));
  const { job } = await harness.jobFor({ minutesAgo: 65, before: 20, after: 20, channels: [1, 2] });
  expect(await harness.deliver([job])).toEqual([]);
  // The zip as the fleet hands it over, unpacked with the insurer's own unzip.
  const zip = join(dir, "claim.zip");
  const pack = await fleetAlerts(["evidence", "pack", job.alertId, "--out", zip], {
    env: {
      ...harness.emulators.env(),
      TABLE_NAME: harness.emulators.tableName,
      EVIDENCE_BUCKET: harness.emulators.bucket,
    },
  });
  expect(pack.code, pack.stderr).toBe(0);
  await run("unzip", ["-q", zip, "-d", dir]);
  folder = join(dir, bagFolderName(job.alertId));
  // The TSA's CA, saved beside the files as the guide says; it comes from the TSA, not the pack.
  await copyFile(tsa.caCertPath, join(folder, "tsa-ca.pem"));
}, 120_000);
afterAll(async () => {
  await harness?.close();
  await tsa?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A copy of the pack to damage. */
async function copyOfPack(name: string): Promise<string> {
  const copy = join(dir, name);
  await cp(folder, copy, { recursive: true });
  return copy;
}

describe("the insurer's commands in docs/insurers.md", () => {
  it("are sha256sum over both manifests and openssl over the time-stamp token", () => {
    expect(commands).toContain("sha256sum -c manifest-sha256.txt");
    expect(commands).toContain("sha256sum -c tagmanifest-sha256.txt");
    expect(commands).toContain("openssl ts -verify");
  });

  it("pass on a stamped claim pack: every file OK, then Verification: OK", async () => {
    const result = await runIn(folder, commands);
    expect(result.code, result.output).toBe(0);
    for (const file of ["data/ch1.mp4", "data/ch2.mp4", "data/event.json", "report.html", "manifest.json"])
      expect(result.output).toContain(`${file}: OK`);
    expect(result.output).toMatch(/^Verification: OK$/m);
  });

  it("fail when a clip changed", async () => {
    const copy = await copyOfPack("changed-clip");
    const clip = await readFile(join(copy, "data/ch1.mp4"));
    clip.writeUInt8(clip.readUInt8(clip.length - 1) ^ 0xff, clip.length - 1);
    await writeFile(join(copy, "data/ch1.mp4"), clip);
    const result = await runIn(copy, commands);
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("data/ch1.mp4: FAILED");
    expect(result.output).not.toContain("Verification: OK");
  });

  it("fail on the token when a file and its listed digests were all changed to match", async () => {
    const copy = await copyOfPack("relisted");
    await writeFile(join(copy, "data/event.json"), '{"serialno":"1","note":"not what happened"}\n');
    await relist(copy, "manifest-sha256.txt", "data/event.json");
    await relist(copy, "tagmanifest-sha256.txt", "manifest-sha256.txt");
    const result = await runIn(copy, commands);
    // Both manifests agree with the files now: only the time-stamp can tell.
    expect(result.output).toContain("data/event.json: OK");
    expect(result.output).toContain("manifest-sha256.txt: OK");
    expect(result.code).not.toBe(0);
    expect(result.output).toContain("Verification: FAILED");
  });
});
