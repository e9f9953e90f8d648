import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  requestTimestamp,
  type TimestampOutcome,
  type TsaSettings,
  verifyTimestampResponse,
} from "../../../packages/core/src/evidence/timestamp/index.js";
import {
  type OpensslTsa,
  startOpensslTsa,
  TSA_OTHER_POLICY,
  TSA_POLICY,
  type TsaBehaviour,
} from "../../support/openssl-tsa.js";
import { runCommand } from "../../support/run-script.js";

const tagManifest = Buffer.from(
  "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9  bag-info.txt\n" +
    "1a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9  bagit.txt\n",
);
const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

let tsa: OpensslTsa;
/** A second TSA under a CA of its own, with the same names as ours: only the signatures tell them apart. */
let otherTsa: OpensslTsa;
let ourCaPem: string;

beforeAll(async () => {
  [tsa, otherTsa] = await Promise.all([startOpensslTsa(), startOpensslTsa()]);
  ourCaPem = await readFile(tsa.caCertPath, "utf8");
});
afterAll(async () => {
  await Promise.all([tsa?.close(), otherTsa?.close()]);
});
beforeEach(() => {
  tsa.behaviour = "stamp";
});

const settings = (overrides: Partial<TsaSettings> = {}): TsaSettings => ({
  url: tsa.url,
  timeoutMs: 10_000,
  ...overrides,
});

async function stamped(data: Uint8Array, from: OpensslTsa = tsa): Promise<Uint8Array> {
  const outcome = await requestTimestamp(data, { url: from.url, timeoutMs: 10_000 });
  if (!outcome.ok) throw new Error(`no token: ${outcome.reason}`);
  return outcome.response;
}

/** `openssl ts -verify` of a token over `data`, trusting our CA (the TSA certificate as untrusted intermediate). */
async function opensslVerify(data: Uint8Array, token: Uint8Array, name: string) {
  const dataFile = join(tsa.folder, `${name}.data`);
  const tokenFile = join(tsa.folder, `${name}.tsr`);
  await writeFile(dataFile, data);
  await writeFile(tokenFile, token);
  return runCommand("openssl", [
    "ts",
    "-verify",
    "-data",
    dataFile,
    "-in",
    tokenFile,
    "-CAfile",
    tsa.caCertPath,
    "-untrusted",
    tsa.tsaCertPath,
  ]);
}

async function opensslFingerprint(certificateFile: string): Promise<string> {
  const { code, stdout } = await runCommand("openssl", [
    "x509",
    "-in",
    certificateFile,
    "-noout",
    "-fingerprint",
    "-sha256",
  ]);
  expect(code).toBe(0);
  return (stdout.split("=")[1] ?? "").trim().replaceAll(":", "").toLowerCase();
}

function failure(outcome: TimestampOutcome): string {
  if (outcome.ok) throw new Error("expected the request to fail");
  return outcome.reason;
}

describe("requestTimestamp from a TSA (openssl ts -reply)", () => {
  it("gets a token over the data that openssl ts -verify and verifyTimestampResponse both accept", async () => {
    const before = tsa.requestCount();
    const outcome = await requestTimestamp(tagManifest, settings());
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(tsa.requestCount()).toBe(before + 1);

    const openssl = await opensslVerify(tagManifest, outcome.response, "accepted");
    expect(openssl.output).toContain("Verification: OK");
    expect(openssl.code).toBe(0);

    const verified = await verifyTimestampResponse(outcome.response, tagManifest, { trustedCaPem: ourCaPem });
    expect(verified.problems).toEqual([]);
    expect(verified.facts).toEqual(outcome.facts);
  });

  it("reads the facts the token states: time, TSA, serial, policy, imprint, and the chain signer first", async () => {
    const outcome = await requestTimestamp(tagManifest, settings());
    if (!outcome.ok) throw new Error(outcome.reason);
    const { facts } = outcome;

    expect(Math.abs(Date.parse(facts.genTime) - Date.now())).toBeLessThan(30_000);
    expect(facts.genTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    // openssl writes the TSA's own name into TSTInfo (tsa_name = yes).
    expect(facts.tsaName).toBe("CN=Test TSA, O=fleet-alerts tests");
    expect(facts.policy).toBe(TSA_POLICY);
    expect(facts.messageImprintSha256).toBe(sha256Hex(tagManifest));

    const tokenFile = join(tsa.folder, "facts.tsr");
    await writeFile(tokenFile, outcome.response);
    const text = (await runCommand("openssl", ["ts", "-reply", "-in", tokenFile, "-text"])).stdout;
    expect(`0x${facts.serialNumber}`.toLowerCase()).toBe(
      /Serial number: (0x\w+)/.exec(text)?.[1]?.toLowerCase(),
    );

    const [signer, ca] = facts.chain;
    expect(facts.chain).toHaveLength(2);
    expect(signer).toMatchObject({
      subject: "CN=Test TSA, O=fleet-alerts tests",
      issuer: "CN=Test Root CA, O=fleet-alerts tests",
      serialNumber: "5eed",
      sha256Fingerprint: await opensslFingerprint(tsa.tsaCertPath),
    });
    expect(ca).toMatchObject({
      subject: "CN=Test Root CA, O=fleet-alerts tests",
      issuer: "CN=Test Root CA, O=fleet-alerts tests",
      sha256Fingerprint: await opensslFingerprint(tsa.caCertPath),
    });
    expect(Date.parse(signer?.notBefore ?? "")).toBeLessThanOrEqual(Date.parse(facts.genTime));
    expect(Date.parse(signer?.notAfter ?? "")).toBeGreaterThan(Date.parse(facts.genTime));
  });

  it("asks under the configured policy", async () => {
    const outcome = await requestTimestamp(tagManifest, settings({ policy: TSA_OTHER_POLICY }));
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.facts.policy).toBe(TSA_OTHER_POLICY);
  });

  it("sends the URL's credentials as Basic authorization, never in the URL", async () => {
    const url = `http://fleet:s%3Acret@127.0.0.1:${tsa.port}/tsa?key=abc`;
    const outcome = await requestTimestamp(tagManifest, settings({ url }));
    expect(outcome.ok).toBe(true);
    expect(tsa.lastAuthorization()).toBe(`Basic ${Buffer.from("fleet:s:cret").toString("base64")}`);

    // A "%" that is no escape is taken as typed, not thrown over.
    const stray = await requestTimestamp(
      tagManifest,
      settings({ url: `http://fleet:50%zz@127.0.0.1:${tsa.port}/tsa` }),
    );
    expect(stray.ok).toBe(true);
    expect(tsa.lastAuthorization()).toBe(`Basic ${Buffer.from("fleet:50%zz").toString("base64")}`);
  });
});

describe("verifyTimestampResponse", () => {
  it("reports an imprint that is not the data's, as openssl ts -verify refuses it", async () => {
    const token = await stamped(tagManifest);
    const changed = Buffer.from(tagManifest);
    changed[10] = (changed[10] ?? 0) ^ 0x01;

    const { problems, facts } = await verifyTimestampResponse(token, changed, { trustedCaPem: ourCaPem });
    // The signature itself is sound: the imprint is the one problem.
    expect(problems).toEqual([
      `the token's message imprint ${sha256Hex(tagManifest)} is not the SHA-256 of the data, ${sha256Hex(changed)}`,
    ]);
    expect(facts?.messageImprintSha256).toBe(sha256Hex(tagManifest));
    expect((await opensslVerify(changed, token, "changed")).code).not.toBe(0);
  });

  it("reports a token whose signer does not chain to the trusted CA, though it is sound in itself", async () => {
    const foreign = await stamped(tagManifest, otherTsa);
    expect((await verifyTimestampResponse(foreign, tagManifest)).problems).toEqual([]);

    const { problems, facts } = await verifyTimestampResponse(foreign, tagManifest, {
      trustedCaPem: ourCaPem,
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^the signer certificate does not chain to the trusted CA: /);
    expect(facts?.chain[0]?.sha256Fingerprint).toBe(await opensslFingerprint(otherTsa.tsaCertPath));
  });

  it("reports a signature changed by one bit, and the imprint too when the data differs as well", async () => {
    const token = Buffer.from(await stamped(tagManifest));
    // The SignerInfo's signature (RSA 2048: 256 bytes) ends the DER: openssl adds no unsigned attributes.
    const at = token.length - 100;
    token[at] = (token[at] ?? 0) ^ 0x01;

    const { problems } = await verifyTimestampResponse(token, tagManifest, { trustedCaPem: ourCaPem });
    expect(problems).toEqual(["the token's signature does not verify with its signer certificate"]);
    expect((await opensslVerify(tagManifest, token, "flipped")).code).not.toBe(0);

    const both = await verifyTimestampResponse(token, Buffer.from("other data"));
    expect(both.problems).toHaveLength(2);
    expect(both.problems[0]).toMatch(/message imprint/);
    expect(both.problems[1]).toMatch(/signature does not verify/);
  });

  it("reports garbage as a problem instead of throwing", async () => {
    for (const garbage of [
      Buffer.from("not a time-stamp"),
      Buffer.alloc(0),
      Buffer.from([0x30, 0x82, 0xff]),
    ]) {
      expect(await verifyTimestampResponse(garbage, tagManifest)).toEqual({
        problems: ["the response is not a DER TimeStampResp"],
      });
    }
  });

  it("reports a trusted CA that holds no certificate", async () => {
    const token = await stamped(tagManifest);
    const { problems } = await verifyTimestampResponse(token, tagManifest, { trustedCaPem: "not PEM" });
    expect(problems).toEqual(["the trusted CA holds no readable PEM certificate"]);
  });
});

describe("requestTimestamp never throws: failures are reasons", () => {
  const failures: [TsaBehaviour, RegExp][] = [
    ["http-500", /answered HTTP 500/],
    ["hang", /did not answer within 300 ms/],
    ["garbage", /is not usable: the response is not a DER TimeStampResp/],
    ["reject", /did not grant a time-stamp: status rejection; badAlg/],
    // Read up to MAX_RESPONSE_BYTES (post-query.ts), then the answer is dropped and the rest never read.
    ["endless", /answered more than 1048576 bytes/],
  ];

  for (const [behaviour, reason] of failures) {
    it(`${behaviour}: one request, { ok: false } with a reason that names the TSA`, async () => {
      tsa.behaviour = behaviour;
      const before = tsa.requestCount();
      const started = Date.now();
      const outcome = await requestTimestamp(tagManifest, settings({ timeoutMs: 300 }));
      expect(failure(outcome)).toMatch(reason);
      expect(failure(outcome)).toContain(tsa.url);
      expect(tsa.requestCount()).toBe(before + 1);
      expect(Date.now() - started).toBeLessThan(5_000);
    });
  }

  it("refuses a replayed answer: the nonce is not this query's", async () => {
    await stamped(tagManifest);
    tsa.behaviour = "replay";
    expect(failure(await requestTimestamp(tagManifest, settings()))).toMatch(
      /does not echo the query's nonce/,
    );
  });

  it("says so when nothing listens, or the caller aborts", async () => {
    const closedPort = await freePort();
    const refused = await requestTimestamp(
      tagManifest,
      settings({ url: `http://127.0.0.1:${closedPort}/tsa` }),
    );
    expect(failure(refused)).toBe(
      `the TSA at http://127.0.0.1:${closedPort}/tsa could not be reached: ECONNREFUSED`,
    );

    tsa.behaviour = "hang";
    const aborted = await requestTimestamp(tagManifest, settings(), { signal: AbortSignal.abort() });
    expect(failure(aborted)).toBe(`the request to the TSA at ${tsa.url} was aborted`);
  });

  it("refuses a URL it cannot use without echoing it", async () => {
    expect(failure(await requestTimestamp(tagManifest, settings({ url: "not a url?key=abc" })))).toBe(
      "the TSA URL is not a valid URL",
    );
    expect(failure(await requestTimestamp(tagManifest, settings({ url: "ftp://127.0.0.1/tsa" })))).toBe(
      "the TSA URL must be http or https, not ftp:",
    );
  });

  it("never shows the URL's credentials or query in a reason", async () => {
    const url = `http://user:secret@127.0.0.1:${tsa.port}/tsa?key=abc`;
    for (const behaviour of ["http-500", "hang", "garbage", "reject", "replay"] as const) {
      tsa.behaviour = behaviour;
      const reason = failure(await requestTimestamp(tagManifest, settings({ url, timeoutMs: 300 })));
      expect(reason).toContain(`http://***@127.0.0.1:${tsa.port}/tsa?***`);
      expect(reason).not.toContain("secret");
      expect(reason).not.toContain("abc");
      expect(reason).not.toContain("user");
    }
  });
});

/** A port nothing listens on: bound once by the OS, then released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}
