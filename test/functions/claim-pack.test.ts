import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { ReceiveMessageCommand } from "@aws-sdk/client-sqs";
import {
  BAG_FILES,
  bagFolderName,
  collectEvidence,
  type EvidenceJob,
  type EvidenceSettings,
  evidenceJobSchema,
  S3EvidenceStore,
} from "@fleet-alerts/core/evidence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openZipBag } from "../../packages/functions/src/claim-pack/zip-source.js";
import { launchBrowser, openRecordedPage, reportAsShown } from "../support/browser.js";
import { type EvidenceHarness, type JobOptions, startEvidenceHarness } from "../support/evidence-harness.js";
import { type OpensslTsa, startOpensslTsa } from "../support/openssl-tsa.js";
import { fleetAlerts } from "./cli/run.js";

const run = promisify(execFile);

let harness: EvidenceHarness;
let tsa: OpensslTsa;
let dir: string;

beforeAll(async () => {
  tsa = await startOpensslTsa();
  harness = await startEvidenceHarness({
    bitrateBitsPerSecond: 256_000,
    env: { TSA_URL: tsa.url, TSA_TIMEOUT_MS: "1000", CLAIM_SOURCE_ORGANIZATION: "Example Fleet Ltd" },
  });
  dir = await mkdtemp(join(tmpdir(), "fleet-alerts-claim-"));
});
afterAll(async () => {
  await harness.close();
  await tsa.close();
  await rm(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The stage's claim pack of an alert as an operator gets it: `evidence pack` from the table and bucket, unzipped. */
async function packed(alertId: string): Promise<{ zip: string; folder: string }> {
  const zip = join(dir, `${bagFolderName(alertId)}.zip`);
  await rm(zip, { force: true }); // a pack made again after the bag gained its token
  const pack = await fleetAlerts(["evidence", "pack", alertId, "--out", zip], {
    env: {
      ...harness.emulators.env(),
      TABLE_NAME: harness.emulators.tableName,
      EVIDENCE_BUCKET: harness.emulators.bucket,
    },
  });
  expect(pack.code, pack.stderr).toBe(0);
  const folder = join(dir, "unzipped", bagFolderName(alertId));
  await rm(folder, { recursive: true, force: true });
  await mkdir(dirname(folder), { recursive: true });
  await run("unzip", ["-q", zip, "-d", dirname(folder)]);
  return { zip, folder };
}

/** Every file under a folder, relative, with `/`. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(folder.length + 1))
    .sort();
}

/**
 * An independent reading of RFC 8493: every line of both manifests names a file whose SHA-256 it
 * states, every payload file is listed, and Payload-Oxum counts the payload. Uses nothing of ours.
 */
async function independentlyValid(folder: string): Promise<void> {
  const files = await filesUnder(folder);
  const payload = files.filter((file) => file.startsWith("data/"));
  for (const manifest of ["manifest-sha256.txt", "tagmanifest-sha256.txt"]) {
    const lines = (await readFile(join(folder, manifest), "utf8")).trimEnd().split("\n");
    for (const line of lines) {
      const [, digest, path] = /^([0-9a-f]{64}) +(.+)$/.exec(line) ?? [];
      expect(sha256(await readFile(join(folder, path as string)))).toBe(digest);
    }
    if (manifest === "manifest-sha256.txt")
      expect(lines.map((line) => line.slice(66)).sort()).toEqual(payload);
  }
  let octets = 0;
  for (const file of payload) octets += (await readFile(join(folder, file))).length;
  expect(await readFile(join(folder, "bag-info.txt"), "utf8")).toContain(
    `Payload-Oxum: ${octets}.${payload.length}\n`,
  );
  await run("sha256sum", ["--quiet", "-c", "manifest-sha256.txt"], { cwd: folder });
  await run("sha256sum", ["--quiet", "-c", "tagmanifest-sha256.txt"], { cwd: folder });
}

const verify = (path: string) => fleetAlerts(["evidence", "verify", path, "--tsa-ca", tsa.caCertPath]);

describe("an alert's claim pack, as an insurer receives it", () => {
  let folder: string;
  let zip: string;
  let alertId: string;

  beforeAll(async () => {
    const { job } = await harness.jobFor({ minutesAgo: 65, before: 30, after: 30, channels: [1, 2] });
    expect(await harness.deliver([job])).toEqual([]);
    alertId = job.alertId;
    ({ folder, zip } = await packed(job.alertId));
  });

  it("is a valid bag with the clips byte for byte, a report and a verifiable RFC 3161 token", async () => {
    expect(await filesUnder(folder)).toEqual([
      "bag-info.txt",
      "bagit.txt",
      "data/ch1.mp4",
      "data/ch2.mp4",
      "data/event.json",
      "data/track.geojson",
      "manifest-sha256.txt",
      "manifest.json",
      "report.html",
      "tagmanifest-sha256.txt",
      "tagmanifest-sha256.txt.tsr",
      "timestamp.html",
    ]);
    await independentlyValid(folder);
    const info = await readFile(join(folder, "bag-info.txt"), "utf8");
    expect(info).toMatch(/^Source-Organization: Example Fleet Ltd$/m);
    expect(info).toMatch(/^External-Identifier: east:\d+:shock$/m);
    // openssl, not our code, accepts the token over the tag manifest, and refuses it over anything else.
    const opensslVerify = (data: string) =>
      run("openssl", [
        "ts",
        "-verify",
        "-data",
        data,
        "-in",
        join(folder, BAG_FILES.timestampToken),
        "-CAfile",
        tsa.caCertPath,
        "-untrusted",
        tsa.tsaCertPath,
      ]);
    await expect(opensslVerify(join(folder, "tagmanifest-sha256.txt"))).resolves.toMatchObject({
      stdout: expect.stringContaining("Verification: OK"),
    });
    await expect(opensslVerify(join(folder, "manifest-sha256.txt"))).rejects.toThrow();
    expect(await readFile(join(folder, "timestamp.html"), "utf8")).toContain("Test TSA");
  });

  it("opens from disk in a browser: map, chart and the clips as served, asking for nothing outside the bag", async () => {
    const browser = await launchBrowser();
    try {
      const folderUrl = pathToFileURL(folder).href;
      const { page, requests } = await openRecordedPage(browser, `${folderUrl}/report.html`);
      const { figures, durations } = await reportAsShown(page);
      for (const figure of figures) {
        expect(figure.width).toBeGreaterThan(0);
        expect(figure.height).toBeGreaterThan(0);
      }
      // The simulator's clips are real H.264: each plays for as long as its MP4 says.
      const custody = JSON.parse(await readFile(join(folder, "manifest.json"), "utf8")) as {
        clips: { mp4DurationMs: number }[];
      };
      expect(durations.map((seconds) => Math.round(seconds * 1000))).toEqual(
        custody.clips.map((clip) => clip.mp4DurationMs),
      );
      expect(requests.filter((url) => !url.startsWith(`${folderUrl}/`))).toEqual([]);
      await mkdir("test-artifacts", { recursive: true });
      await page.screenshot({ path: "test-artifacts/claim-pack-from-pipeline.png", fullPage: true });
    } finally {
      await browser.close();
    }
  }, 60_000);

  it("verifies OK, folder and zip, with the token's time and TSA", async () => {
    for (const path of [folder, zip]) {
      const result = await verify(path);
      expect(result.code, result.stdout).toBe(0);
      expect(result.stdout).toMatch(/^OK: 4 payload files, .*, timestamp \d{4}-\d\d-\d\dT.* by .*Test TSA/);
    }
  });

  it("is the same bag, token included, when the evidence function zips it for the incident page", async () => {
    expect(await harness.deliver([{ kind: "claim-pack", version: 1, alertId }])).toEqual([]);
    const [key] = await harness.keysUnder(harness.emulators.stagingBucket, "packs/");
    const object = await harness.emulators.clients.s3.send(
      new GetObjectCommand({ Bucket: harness.emulators.stagingBucket, Key: key }),
    );
    expect(object.ContentType).toBe("application/zip");
    const staged = join(dir, "staged.zip");
    await writeFile(
      staged,
      await (object.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray(),
    );
    const [fromCli, fromFunction] = [await openZipBag(zip), await openZipBag(staged)];
    expect(fromFunction.files.map((file) => [file.path, file.size])).toEqual(
      fromCli.files.map((file) => [file.path, file.size]),
    );
    expect(fromFunction.files.map((file) => file.path)).toContain(BAG_FILES.timestampToken);
    await Promise.all([fromCli.close(), fromFunction.close()]);
    const result = await verify(staged);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/^OK: 4 payload files, .*, timestamp \d{4}-\d\d-\d\dT.* by .*Test TSA/);
  });

  it.each([
    [
      "one byte of a clip changed",
      async (bag: string) => {
        const clip = await readFile(join(bag, "data/ch1.mp4"));
        clip[clip.length - 1] = (clip[clip.length - 1] as number) ^ 1;
        await writeFile(join(bag, "data/ch1.mp4"), clip);
      },
      [/^hash-mismatch {2}data\/ch1\.mp4/m],
    ],
    [
      "a manifest line edited",
      async (bag: string) => {
        const manifest = await readFile(join(bag, "manifest-sha256.txt"), "utf8");
        await writeFile(
          join(bag, "manifest-sha256.txt"),
          manifest.replace(/^[0-9a-f]/, (c) => (c === "0" ? "1" : "0")),
        );
      },
      [/ {2}data\/ch1\.mp4/m, /tagmanifest-sha256\.txt|manifest-sha256\.txt/m],
    ],
    ["a clip removed", (bag: string) => rm(join(bag, "data/ch2.mp4")), [/^missing-file {2}data\/ch2\.mp4/m]],
    [
      "a file added to the payload",
      (bag: string) => writeFile(join(bag, "data/extra.mp4"), "x"),
      [/^unlisted-file {2}data\/extra\.mp4/m],
    ],
    [
      "a file added at the root",
      (bag: string) => writeFile(join(bag, "notes.txt"), "x"),
      [/^unexpected-file {2}notes\.txt/m],
    ],
    [
      "a token over other data",
      async (bag: string) => {
        // A genuine token of the same TSA, over something else: only the imprint is wrong.
        const other = await run(
          "openssl",
          ["ts", "-query", "-data", join(bag, "bagit.txt"), "-sha256", "-cert"],
          {
            encoding: "buffer",
          },
        );
        const response = await fetch(tsa.url, {
          method: "POST",
          headers: { "content-type": "application/timestamp-query" },
          body: other.stdout,
        });
        await writeFile(join(bag, BAG_FILES.timestampToken), Buffer.from(await response.arrayBuffer()));
      },
      [/^timestamp {2}tagmanifest-sha256\.txt\.tsr {2}/m],
    ],
  ] as const)("exits 1 naming the problem when %s", async (label, tamper, expected) => {
    const copy = join(dir, "tampered", label.replace(/\W+/g, "-"));
    await rm(copy, { recursive: true, force: true });
    await mkdir(dirname(copy), { recursive: true });
    await run("cp", ["-r", folder, copy]);
    await tamper(copy);
    const result = await verify(copy);
    expect(result.code).toBe(1);
    for (const pattern of expected) expect(result.stdout).toMatch(pattern);
    expect(result.stdout).not.toMatch(/^OK/m);
  });
});

describe("a claim pack with something missing is still a valid bag that says what and why", () => {
  it.each([
    [
      "no track (the GPS history fails)",
      { minutesAgo: 75, channels: [1] },
      (): void => {
        harness.simulator.control.faults.add({ endpoint: "gps", kind: "status500" });
      },
      ["data/ch1.mp4", "data/event.json"],
      "No GPS track: the device cloud&#39;s GPS history answered with an error",
    ],
    [
      "no clip (nothing recorded, given up)",
      { minutesAgo: 120, channels: [1], recorded: false },
      (): void => undefined,
      ["data/event.json", "data/track.geojson"],
      "No video",
    ],
    [
      "one of two channels not on the device",
      { minutesAgo: 100, channels: [1, 9] },
      (): void => undefined,
      ["data/ch1.mp4", "data/event.json", "data/track.geojson"],
      "Channel 9 was asked for, but the device has no channel 9.",
    ],
  ] satisfies [string, Omit<JobOptions, "before" | "after">, () => void, string[], string][])(
    "%s",
    async (_label, options, fault, payload, sentence) => {
      const { job } = await harness.jobFor({ before: 30, after: 30, ...options });
      fault();
      try {
        expect(await harness.deliver([job])).toEqual([]);
      } finally {
        harness.simulator.control.faults.clear();
      }
      const { folder } = await packed(job.alertId);
      expect((await filesUnder(folder)).filter((file) => file.startsWith("data/"))).toEqual(payload);
      await independentlyValid(folder);
      expect((await verify(folder)).code).toBe(0);
      expect(await readFile(join(folder, "report.html"), "utf8")).toContain(sentence);
    },
  );

  it("is complete without its token when the TSA times out, and gets it when the job comes back", async () => {
    const { job } = await harness.jobFor({ minutesAgo: 85, before: 30, after: 30, channels: [1] });
    tsa.behaviour = "hang";
    try {
      // SQS delays 60 times shorter: the retry a minute later comes a second later.
      expect(await harness.deliver([job], 1, harness.env, { timeScale: 60 })).toEqual([]);
    } finally {
      tsa.behaviour = "stamp";
    }
    const { folder } = await packed(job.alertId);
    expect(await filesUnder(folder)).not.toContain(BAG_FILES.timestampToken);
    expect(await readFile(join(folder, "timestamp.html"), "utf8")).toMatch(/pending/i);
    await independentlyValid(folder);
    expect((await verify(folder)).stdout).toMatch(/^OK: .*no timestamp token/);

    // The job came back to the evidence queue, delayed, to ask again; delivered, it stamps the bag.
    const requeued = await receiveRequeued(job.alertId);
    expect(requeued.timestampAttempt).toBe(1);
    expect(await harness.deliver([requeued])).toEqual([]);
    const stamped = await packed(job.alertId);
    expect(await filesUnder(stamped.folder)).toContain(BAG_FILES.timestampToken);
    expect((await verify(stamped.folder)).stdout).toMatch(/^OK: .*timestamp .* by /);
  });
});

/** The evidence job sent back to the queue for this alert (waiting out its delay). */
async function receiveRequeued(alertId: string) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const { Messages = [] } = await harness.emulators.clients.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: harness.emulators.queues.evidence,
        MaxNumberOfMessages: 10,
        WaitTimeSeconds: 1,
      }),
    );
    for (const message of Messages) {
      const job = evidenceJobSchema.parse(JSON.parse(message.Body ?? "{}"));
      if (job.alertId === alertId && job.timestampAttempt > 0) return job;
    }
  }
  throw new Error(`no requeued job for ${alertId}`);
}

describe("a claim pack after a crash", () => {
  /** The evidence function's core with a store that crashes on putting the object `crashOn` names. */
  function crashingRun(crashOn: string, tsa?: { url: string; timeoutMs: number }) {
    const store = new S3EvidenceStore(harness.emulators.clients.s3, {
      evidence: harness.emulators.bucket,
      staging: harness.emulators.stagingBucket,
    });
    const crashing = Object.assign(Object.create(store) as S3EvidenceStore, {
      putObject: async (key: string, body: string | Uint8Array, contentType: string) => {
        if (key.endsWith(crashOn)) throw new Error(`crash before ${crashOn}`);
        return store.putObject(key, body, contentType);
      },
    });
    const settings: EvidenceSettings = {
      ...harness.direct.settings,
      claimPack: { ...harness.direct.settings.claimPack, ...(tsa && { tsa }) },
    };
    const { deps } = harness.direct;
    return {
      crash: (job: EvidenceJob) => collectEvidence(job, settings, { ...deps, store: crashing }),
      run: (job: EvidenceJob) => collectEvidence(job, settings, { ...deps, store }),
    };
  }

  it("writes the bag on the next delivery when the run stopped before its tag manifest, fetching no clip again", async () => {
    const { job, prefix } = await harness.jobFor({ minutesAgo: 95, before: 30, after: 30, channels: [1] });
    const { crash, run: rerun } = crashingRun(BAG_FILES.tagManifest);
    const parsed = evidenceJobSchema.parse(job);
    await expect(crash(parsed)).rejects.toThrow(`crash before ${BAG_FILES.tagManifest}`);
    expect(await harness.keysUnder(harness.emulators.bucket, prefix)).not.toContain(
      `${prefix}${BAG_FILES.tagManifest}`,
    );
    const fetched = harness.simulator.control.playbacks.length;
    expect(await rerun(parsed)).toMatchObject({
      kind: "already-stored",
    });
    expect(harness.simulator.control.playbacks.length).toBe(fetched);
    const { folder } = await packed(job.alertId);
    await independentlyValid(folder);
    expect((await verify(folder)).code).toBe(0);
  });

  it("stamps the bag on the next delivery when the run stopped between the token's page and the token", async () => {
    const { job, prefix } = await harness.jobFor({ minutesAgo: 105, before: 30, after: 30, channels: [1] });
    const { crash, run: rerun } = crashingRun(BAG_FILES.timestampToken, { url: tsa.url, timeoutMs: 1_000 });
    const parsed = evidenceJobSchema.parse(job);
    await expect(crash(parsed)).rejects.toThrow(`crash before ${BAG_FILES.timestampToken}`);
    const keys = await harness.keysUnder(harness.emulators.bucket, prefix);
    expect(keys).toContain(`${prefix}${BAG_FILES.timestampPage}`);
    expect(keys).not.toContain(`${prefix}${BAG_FILES.timestampToken}`);
    const asked = tsa.requestCount();
    expect(await rerun(parsed)).toMatchObject({ kind: "already-stored" });
    expect(tsa.requestCount()).toBe(asked + 1); // a new token, and its page written again
    const { folder } = await packed(job.alertId);
    expect((await verify(folder)).stdout).toMatch(/^OK: .*timestamp .* by /);
    // A stamped bag delivered again is left as it is: no request, no write.
    expect(await rerun(parsed)).toMatchObject({ kind: "already-stored" });
    expect(tsa.requestCount()).toBe(asked + 1);
  });
});
