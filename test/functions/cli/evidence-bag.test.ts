import { execFile } from "node:child_process";
import { appendFile, mkdtemp, readdir, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PutObjectCommand } from "@aws-sdk/client-s3";
import { AlertStore, type NewAlertRecord } from "@fleet-alerts/core/alerts";
import { bagFolderName } from "@fleet-alerts/core/evidence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NoBagError } from "../../../packages/functions/src/claim-pack/alert-bag.js";
import { stageAlertBag } from "../../../packages/functions/src/cli/alert-bag.js";
import { type BagFixture, FIXTURE_ALERT_ID, writeBagFixture } from "../../support/bag-fixture.js";
import { type Emulators, startEmulators } from "../../support/emulators.js";
import { fleetAlerts } from "./run.js";

const PREFIX = "evidence/0042/2026/01/05/1000123/";
const OLD_PREFIX = "evidence/0042/2026/01/05/1000124/";
const OLD_ALERT_ID = "east:1000124:overspeed";
const PENDING_ALERT_ID = "east:1000125:overspeed";

let emulators: Emulators;
let dir: string;
/** The local evidence folder, holding the fixture's bag where `evidence pack --dir` looks for it. */
let evidenceDir: string;
let fixture: BagFixture;

beforeAll(async () => {
  emulators = await startEmulators();
  dir = await mkdtemp(join(tmpdir(), "cli-bag-"));
  evidenceDir = join(dir, "evidence");
  fixture = await writeBagFixture(join(evidenceDir, bagFolderName(FIXTURE_ALERT_ID)));
  await storeStageEvidence();
});
afterAll(async () => {
  await emulators?.close();
  await rm(dir, { recursive: true, force: true });
});

/** The stage as the evidence function leaves it: the bag under its prefix, the record pointing at it. */
async function storeStageEvidence(): Promise<void> {
  const put = (key: string, body: Uint8Array) =>
    emulators.clients.s3.send(new PutObjectCommand({ Bucket: emulators.bucket, Key: key, Body: body }));
  for (const path of fixture.files) await put(PREFIX + path, await readFile(join(fixture.root, path)));
  // Evidence stored before claim packs: clips and a manifest, no bag.
  await put(`${OLD_PREFIX}manifest.json`, new TextEncoder().encode("{}"));
  await put(`${OLD_PREFIX}ch1.mp4`, new Uint8Array(10));

  const alerts = new AlertStore({ documents: emulators.clients.documents, tableName: emulators.tableName });
  const record = (serialno: bigint): NewAlertRecord => ({
    account: "east",
    serialno,
    ruleId: "overspeed",
    deviceid: "0042",
    appdevid: 13,
    eventtime: "2026-01-05T08:30:00Z",
    severity: "warning",
    status: "published",
    evidence: { channels: [1], secondsBefore: 30, secondsAfter: 30 },
  });
  for (const serialno of [1000123n, 1000124n, 1000125n]) await alerts.record(record(serialno), Date.now());
  await alerts.setEvidence(record(1000123n), {
    status: "stored",
    keys: [`${PREFIX}manifest.json`, `${PREFIX}data/ch1.mp4`, `${PREFIX}data/ch2.mp4`],
  });
  await alerts.setEvidence(record(1000124n), {
    status: "stored",
    keys: [`${OLD_PREFIX}manifest.json`, `${OLD_PREFIX}ch1.mp4`],
  });
  const pending = await alerts.get("east", 1000125n, "overspeed");
  if (!pending) throw new Error("the pending alert was not recorded");
  await alerts.markHandedOn(pending, Date.now());
}

const stageEnv = () => emulators.env();
const OK_LINE = () => `OK: 4 payload files, ${fixture.payloadOctets} bytes, no timestamp token\n`;

/** A copy of the fixture's bag to tamper with. */
async function bagCopy(name: string): Promise<string> {
  const copy = join(dir, name);
  await promisify(execFile)("cp", ["-r", fixture.root, copy]);
  return copy;
}

describe("fleet-alerts evidence pack", () => {
  it("packs the bag from the local evidence folder into a zip that verifies", async () => {
    const out = join(dir, "local.zip");
    const pack = await fleetAlerts([
      "evidence",
      "pack",
      FIXTURE_ALERT_ID,
      "--dir",
      evidenceDir,
      "--out",
      out,
    ]);
    expect(pack.stderr).toBe("");
    expect(pack.code).toBe(0);
    expect(pack.stdout).toBe(`${out}: 10 files, ${await bagBytes()} bytes, from ${fixture.root}\n`);
    const listing = await promisify(execFile)("unzip", ["-Z1", out]);
    expect(listing.stdout.trim().split("\n").sort()).toEqual(
      fixture.files.map((path) => `claim-east-1000123-overspeed/${path}`),
    );
    expect(await readdir(dir)).not.toContain("local.zip.part");

    const verify = await fleetAlerts(["evidence", "verify", out]);
    expect(verify).toEqual({ code: 0, stdout: OK_LINE(), stderr: "" });
  });

  it("packs the bag from a stage's bucket, found through the alert record, into the same files", async () => {
    const out = join(dir, "stage.zip");
    const pack = await fleetAlerts(["evidence", "pack", FIXTURE_ALERT_ID, "--out", out], { env: stageEnv() });
    expect(pack.stderr).toBe("");
    expect(pack.code).toBe(0);
    expect(pack.stdout).toBe(
      `${out}: 10 files, ${await bagBytes()} bytes, from s3://${emulators.bucket}/${PREFIX}\n`,
    );
    const unzipped = join(dir, "stage-unzipped");
    await promisify(execFile)("unzip", ["-q", out, "-d", unzipped]);
    await promisify(execFile)("diff", ["-r", fixture.root, join(unzipped, "claim-east-1000123-overspeed")]);

    expect(await fleetAlerts(["evidence", "verify", out])).toEqual({
      code: 0,
      stdout: OK_LINE(),
      stderr: "",
    });
  });

  it("refuses an existing --out, and says where the evidence is to come from when nothing does", async () => {
    const existing = join(dir, "existing.zip");
    await writeFile(existing, "someone else's");
    const refused = await fleetAlerts(
      ["evidence", "pack", FIXTURE_ALERT_ID, "--dir", evidenceDir, "--out", existing],
      { env: stageEnv() },
    );
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toBe(`fleet-alerts: ${existing} exists: choose another --out or remove it\n`);
    expect(await readFile(existing, "utf8")).toBe("someone else's");

    const nowhere = await fleetAlerts(["evidence", "pack", FIXTURE_ALERT_ID, "--out", join(dir, "x.zip")], {
      env: { TABLE_NAME: undefined, EVIDENCE_BUCKET: undefined },
    });
    expect(nowhere.code).toBe(1);
    expect(nowhere.stderr).toContain("say where the evidence is: --dir <folder>");
  });

  it("says why a stage has no bag to pack: unknown alert, evidence not stored yet, evidence from before claim packs", async () => {
    const runs = await Promise.all(
      ["east:999:overspeed", PENDING_ALERT_ID, OLD_ALERT_ID].map((alertId) =>
        fleetAlerts(["evidence", "pack", alertId, "--out", join(dir, `${alertId}.zip`)], { env: stageEnv() }),
      ),
    );
    expect(runs.map(({ code, stderr }) => `${code} ${stderr}`)).toEqual([
      `1 fleet-alerts: no alert east:999:overspeed in table ${emulators.tableName}\n`,
      `1 fleet-alerts: alert ${PENDING_ALERT_ID} has no evidence stored: it is still being collected\n`,
      `1 fleet-alerts: the evidence of alert ${OLD_ALERT_ID} at s3://${emulators.bucket}/${OLD_PREFIX} has no bag ` +
        "(no bagit.txt): it was stored before claim packs, and can be copied but not packed\n",
    ]);
    expect((await readdir(dir)).filter((name) => name.includes(":"))).toEqual([]);
  });

  it("refuses with a reason a caller can tell apart", async () => {
    const stage = { table: emulators.tableName, bucket: emulators.bucket };
    const reasons = await Promise.all(
      ["east:999:overspeed", PENDING_ALERT_ID, OLD_ALERT_ID].map((alertId) =>
        stageAlertBag(alertId, stage, stageEnv()).then(
          () => "packed",
          (error: unknown) => (error instanceof NoBagError ? error.reason : String(error)),
        ),
      ),
    );
    expect(reasons).toEqual(["unknown-alert", "no-evidence", "no-bag"]);
  });
});

describe("fleet-alerts evidence verify", () => {
  it("prints OK for the untouched folder", async () => {
    expect(await fleetAlerts(["evidence", "verify", fixture.root])).toEqual({
      code: 0,
      stdout: OK_LINE(),
      stderr: "",
    });
  });

  it("names every problem, one line each, and exits 1: a changed byte, an edited line, a removed and two added files", async () => {
    const bag = await bagCopy("tampered");
    const clip = await readFile(join(bag, "data/ch1.mp4"));
    clip[100] = (clip[100] ?? 0) ^ 0x10;
    await writeFile(join(bag, "data/ch1.mp4"), clip);
    const manifest = await readFile(join(bag, "manifest-sha256.txt"), "utf8");
    await writeFile(
      join(bag, "manifest-sha256.txt"),
      manifest.replace("data/track.geojson", "data/track.json"),
    );
    await unlink(join(bag, "data/ch2.mp4"));
    await writeFile(join(bag, "data/ch3.mp4"), "added");
    await appendFile(join(bag, "notes.txt"), "added");

    const run = await fleetAlerts(["evidence", "verify", bag]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.map((line) => line.split("  ").slice(0, 2).join(" "))).toEqual([
      "unexpected-file notes.txt",
      "oxum-mismatch bag-info.txt",
      "hash-mismatch data/ch1.mp4",
      "missing-file data/ch2.mp4",
      "missing-file data/track.json",
      "unlisted-file data/ch3.mp4",
      "unlisted-file data/track.geojson",
      "hash-mismatch manifest-sha256.txt",
    ]);
    expect(lines[3]).toBe(
      "missing-file  data/ch2.mp4  is listed in manifest-sha256.txt (line 2) but not in the bag",
    );
    expect(run.stderr).toBe(`fleet-alerts: ${bag}: 8 problems: the claim pack is not intact\n`);
  });

  it("names a changed byte in a clip inside a zip", async () => {
    const out = join(dir, "to-tamper.zip");
    await fleetAlerts(["evidence", "pack", FIXTURE_ALERT_ID, "--dir", evidenceDir, "--out", out]);
    const zip = await readFile(out);
    // Clips are stored, not deflated: their bytes are in the zip as they are.
    const at = zip.indexOf(fixture.payload.get("data/ch2.mp4") ?? new Uint8Array()) + 10;
    expect(at).toBeGreaterThan(10);
    zip[at] = (zip[at] ?? 0) ^ 0x01;
    await writeFile(out, zip);
    const run = await fleetAlerts(["evidence", "verify", out]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^hash-mismatch {2}data\/ch2\.mp4 {2}its SHA-256 is [0-9a-f]{64}; /);
    expect(run.stdout.split("\n")).toHaveLength(2);
  });

  it("fails a bag whose time-stamp token is not an RFC 3161 response, naming the token", async () => {
    const stamped = join(dir, "stamped");
    await writeBagFixture(stamped, { timestampToken: new Uint8Array([0x30, 0x00]) });
    const run = await fleetAlerts(["evidence", "verify", stamped]);
    expect(run.code).toBe(1);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^timestamp {2}tagmanifest-sha256\.txt\.tsr {2}\S/);
  });

  it("says plainly when the path or the CA file is not there", async () => {
    const missing = join(dir, "missing");
    const [path, ca] = await Promise.all([
      fleetAlerts(["evidence", "verify", missing]),
      fleetAlerts(["evidence", "verify", fixture.root, "--tsa-ca", join(dir, "no-ca.pem")]),
    ]);
    expect(path).toEqual({
      code: 1,
      stdout: "",
      stderr: `fleet-alerts: ${missing}: no such file or folder\n`,
    });
    expect(ca.code).toBe(1);
    expect(ca.stderr).toMatch(/^fleet-alerts: --tsa-ca: ENOENT/);
  });
});

async function bagBytes(): Promise<number> {
  let total = 0;
  for (const path of fixture.files) total += (await readFile(join(fixture.root, path))).length;
  return total;
}
