import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { GetObjectLockConfigurationCommand, type S3Client, S3ServiceException } from "@aws-sdk/client-s3";
import { fetchProbe, S3ObjectLock } from "@fleet-alerts/core/doctor";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let base: string;
const server = createServer((request, response) => {
  // "/hang" never answers: the probe's time-out must end the wait.
  if (request.url === "/hang") return;
  response.writeHead(405).end("POST a TimeStampReq");
});
beforeAll(async () => {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

describe("fetchProbe", () => {
  it("reports the status of an answer, a time-out and a refused connection, without throwing", async () => {
    expect(await fetchProbe.get(`${base}/`, 2_000)).toEqual({ status: 405, ms: expect.any(Number) });
    expect(await fetchProbe.get(`${base}/hang`, 200)).toEqual({ error: "no answer within 200 ms" });
    // A port this test had and let go: nothing listens on it.
    const closed = createServer().listen(0, "127.0.0.1");
    await once(closed, "listening");
    const { port } = closed.address() as AddressInfo;
    closed.close();
    await once(closed, "close");
    expect(await fetchProbe.get(`http://127.0.0.1:${port}/`, 2_000)).toEqual({
      error: expect.stringMatching(/^could not be reached: .*ECONNREFUSED/),
    });
  });
});

/**
 * The S3 emulator (fauxqs) has no Object Lock (RECIPES.md): it would answer a bucket listing. So the
 * adapter is shown S3's answers through a stand-in for the client's `send`, nothing else mocked.
 */
describe("S3ObjectLock", () => {
  const answering = (answer: () => unknown) => {
    const sent: unknown[] = [];
    const s3 = {
      send: async (command: unknown) => {
        sent.push(command);
        return answer();
      },
    } as unknown as S3Client;
    return { lock: new S3ObjectLock(s3), sent };
  };

  it("reads the mode and default retention of a locked bucket", async () => {
    const { lock, sent } = answering(() => ({
      ObjectLockConfiguration: {
        ObjectLockEnabled: "Enabled",
        Rule: { DefaultRetention: { Mode: "COMPLIANCE", Days: 3650 } },
      },
    }));
    expect(await lock.state("evidence")).toEqual({ enabled: true, mode: "COMPLIANCE", days: 3650 });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toBeInstanceOf(GetObjectLockConfigurationCommand);
    expect((sent[0] as GetObjectLockConfigurationCommand).input).toEqual({ Bucket: "evidence" });
  });

  it("says off for a bucket made without it, and passes other errors on", async () => {
    const notFound = new S3ServiceException({
      name: "ObjectLockConfigurationNotFoundError",
      $fault: "client",
      $metadata: {},
    });
    expect(await answering(() => Promise.reject(notFound)).lock.state("plain")).toEqual({ enabled: false });
    const denied = new S3ServiceException({ name: "AccessDenied", $fault: "client", $metadata: {} });
    await expect(answering(() => Promise.reject(denied)).lock.state("plain")).rejects.toBe(denied);
  });
});
