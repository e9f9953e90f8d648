import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/**
 * How the TSA answers the next queries: a real token, or one of the failures a client must survive
 * ("replay" sends the last token again, an answer to an earlier query).
 */
export type TsaBehaviour = "stamp" | "http-500" | "hang" | "garbage" | "reject" | "replay" | "endless";

export const TSA_POLICY = "1.3.6.1.4.1.55555.1.1";
export const TSA_OTHER_POLICY = "1.3.6.1.4.1.55555.1.2";

export interface OpensslTsa {
  /** The query endpoint, `http://127.0.0.1:<port>/tsa`. */
  url: string;
  port: number;
  caCertPath: string;
  tsaCertPath: string;
  /** A folder of this TSA's that tests may write files into; removed on close. */
  folder: string;
  behaviour: TsaBehaviour;
  /** Queries received so far, answered or not. */
  requestCount(): number;
  /** The Authorization header of the last query, if it had one. */
  lastAuthorization(): string | undefined;
  close(): Promise<void>;
}

/**
 * A Time-Stamp Authority for tests: a fresh CA and TSA certificate (made with the system `openssl` in
 * a temporary folder), and an HTTP server on 127.0.0.1 that answers each POSTed query with what
 * `openssl ts -reply` makes of it. `names` sets the certificates' common names, so that two TSAs can
 * be told apart (or made to look alike).
 */
export async function startOpensslTsa(
  names: { ca: string; tsa: string } = { ca: "Test Root CA", tsa: "Test TSA" },
): Promise<OpensslTsa> {
  const folder = await mkdtemp(join(tmpdir(), "fleet-alerts-tsa-"));
  const config = join(folder, "tsa.cnf");
  await makeCertificates(folder, names);
  await writeFile(join(folder, "tsaserial"), "01\n");
  await writeFile(config, opensslTsConfig(folder));

  let requests = 0;
  let authorization: string | undefined;
  let lastReply = Buffer.alloc(0);
  const tsa: OpensslTsa = {
    url: "",
    port: 0,
    caCertPath: join(folder, "ca.crt"),
    tsaCertPath: join(folder, "tsa.crt"),
    folder,
    behaviour: "stamp",
    requestCount: () => requests,
    lastAuthorization: () => authorization,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(folder, { recursive: true, force: true });
    },
  };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      requests++;
      authorization = request.headers.authorization;
      switch (tsa.behaviour) {
        case "hang":
          return;
        case "http-500":
          response.writeHead(500, { "content-type": "text/plain" }).end("internal error");
          return;
        case "garbage":
          response.writeHead(200, { "content-type": "application/timestamp-reply" }).end("not DER at all");
          return;
        case "replay":
          response.writeHead(200, { "content-type": "application/timestamp-reply" }).end(lastReply);
          return;
        case "endless": {
          // An answer that never ends, written as fast as the client reads it, until it hangs up.
          response.writeHead(200, { "content-type": "application/timestamp-reply" });
          const chunk = Buffer.alloc(64 * 1024, 0x30);
          const more = () => {
            while (!response.destroyed && response.write(chunk));
          };
          response.on("drain", more);
          more();
          return;
        }
        default: {
          // The rejecting section accepts no SHA-256 imprint: openssl itself answers status 2 (rejection).
          const section = tsa.behaviour === "reject" ? "tsa_rejecting" : "tsa_granting";
          try {
            const queryFile = join(folder, `query-${requests}.tsq`);
            await writeFile(queryFile, Buffer.concat(chunks));
            const reply = await run(
              "openssl",
              ["ts", "-reply", "-config", config, "-section", section, "-queryfile", queryFile],
              { encoding: "buffer" },
            );
            if (tsa.behaviour === "stamp") lastReply = reply.stdout;
            response.writeHead(200, { "content-type": "application/timestamp-reply" }).end(reply.stdout);
          } catch (error) {
            // 502, not 500: a broken test TSA must not pass for the scripted "http-500" answer.
            response.writeHead(502, { "content-type": "text/plain" }).end(String(error));
          }
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  tsa.port = (server.address() as AddressInfo).port;
  tsa.url = `http://127.0.0.1:${tsa.port}/tsa`;
  return tsa;
}

async function makeCertificates(folder: string, names: { ca: string; tsa: string }) {
  const at = (file: string) => join(folder, file);
  await writeFile(
    at("tsa-extensions.cnf"),
    [
      "basicConstraints = critical, CA:FALSE",
      "keyUsage = critical, digitalSignature",
      "extendedKeyUsage = critical, timeStamping",
      "subjectKeyIdentifier = hash",
      "authorityKeyIdentifier = keyid",
      "",
    ].join("\n"),
  );
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    at("ca.key"),
    "-out",
    at("ca.crt"),
    "-days",
    "2",
    // O before CN in the DER: RFC 4514 reads it back as "CN=..., O=...".
    "-subj",
    `/O=fleet-alerts tests/CN=${names.ca}`,
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ]);
  await run("openssl", [
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    at("tsa.key"),
    "-out",
    at("tsa.csr"),
    "-subj",
    `/O=fleet-alerts tests/CN=${names.tsa}`,
  ]);
  await run("openssl", [
    "x509",
    "-req",
    "-in",
    at("tsa.csr"),
    "-CA",
    at("ca.crt"),
    "-CAkey",
    at("ca.key"),
    "-set_serial",
    "0x5eed",
    "-days",
    "2",
    "-extfile",
    at("tsa-extensions.cnf"),
    "-out",
    at("tsa.crt"),
  ]);
}

function opensslTsConfig(folder: string): string {
  const common = [
    `serial = ${join(folder, "tsaserial")}`,
    "crypto_device = builtin",
    `signer_cert = ${join(folder, "tsa.crt")}`,
    // The CA too: the token carries the whole chain, signer then issuer.
    `certs = ${join(folder, "ca.crt")}`,
    `signer_key = ${join(folder, "tsa.key")}`,
    "signer_digest = sha256",
    `default_policy = ${TSA_POLICY}`,
    `other_policies = ${TSA_OTHER_POLICY}`,
    "accuracy = secs:1",
    "ordering = no",
    "tsa_name = yes",
    "ess_cert_id_chain = no",
    "ess_cert_id_alg = sha256",
  ];
  return [
    "[ tsa_granting ]",
    ...common,
    "digests = sha256, sha384, sha512",
    "[ tsa_rejecting ]",
    ...common,
    "digests = sha512",
    "",
  ].join("\n");
}
