import {
  DeviceCloudClient,
  DeviceCloudHttpError,
  DeviceCloudInvalidResponseError,
  DeviceCloudTimeoutError,
  hashPassword,
  PlaybackNotMp4Error,
  PlaybackTruncatedError,
} from "@fleet-alerts/core/devicecloud";
import { afterEach, describe, expect, it } from "vitest";
import { json, raw, silence, startScriptedServer } from "../../support/scripted-server.js";

const PASSWORD = "s3cret-demo-password";
const HASH = hashPassword(PASSWORD);
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function clientFor(replies: Parameters<typeof startScriptedServer>[0], settings = {}) {
  const server = await startScriptedServer(replies);
  close = server.close;
  const warnings: string[] = [];
  const client = new DeviceCloudClient({
    baseUrl: `${server.url}/base`,
    credentials: { username: "demo", password: PASSWORD },
    retry: { baseDelayMs: 1, maxDelayMs: 5 },
    logger: { warn: (message, attributes) => warnings.push(`${message} ${JSON.stringify(attributes)}`) },
    ...settings,
  });
  return { client, requests: server.requests, warnings };
}

describe("request shape", () => {
  it("POSTs JSON with the spec's content type and every parameter in the body", async () => {
    const { client, requests } = await clientFor([json(200, [])]);
    await client.queryEvents({ afterSerialno: 18446744073709551617n, deviceid: "D1", columns: ["serialno"] });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request?.method).toBe("POST");
    expect(request?.url).toBe("/base/gkevent/eventquery");
    expect(request?.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(request?.body).toBe(
      `{"username":"demo","password":"${HASH}","afterSerialno":18446744073709551617,"deviceid":"D1","columns":["serialno"]}`,
    );
  });

  it("sends no body field for an omitted filter and no credentials anywhere but the body", async () => {
    const { client, requests } = await clientFor([json(200, [])]);
    await client.onlineDevices();
    expect(JSON.parse(requests[0]?.body ?? "")).toEqual({ username: "demo", password: HASH });
    expect(requests[0]?.url).not.toContain(HASH);
    expect(JSON.stringify(requests[0]?.headers)).not.toContain(HASH);
  });
});

describe("retries and errors", () => {
  it("honours Retry-After on 429 and then succeeds", async () => {
    const { client, requests, warnings } = await clientFor([
      json(429, { error: "slow down" }, { "retry-after": "0" }),
      json(200, ["D1"]),
    ]);
    expect(await client.registeredDevices()).toEqual(["D1"]);
    expect(requests).toHaveLength(2);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('"endpoint":"registeredDevices"');
  });

  it("gives up when Retry-After asks for more than the time budget allows", async () => {
    const { client, requests } = await clientFor([json(503, {}, { "retry-after": "3600" })]);
    await expect(client.onlineDevices()).rejects.toMatchObject({ status: 503, attempts: 1 });
    expect(requests).toHaveLength(1);
  });

  it("does not follow a redirect (it would resend the credentials elsewhere)", async () => {
    const { client, requests } = await clientFor([
      raw(307, "", { location: "http://127.0.0.1:1/elsewhere" }),
    ]);
    const error = await client.onlineDevices().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeviceCloudHttpError);
    expect(error).toMatchObject({ status: 307, retryable: false });
    expect(requests).toHaveLength(1);
  });

  it("quotes the service's JSON message, with the hash redacted if it echoes it", async () => {
    const { client } = await clientFor([
      json(400, { error: "bad_request", message: `password ${HASH} rejected` }),
    ]);
    const error = (await client.onlineDevices().catch((caught: unknown) => caught)) as DeviceCloudHttpError;
    expect(error.message).toBe(
      "device cloud onlineDevices (POST /gkdevice/onlinelist): HTTP 400 (password [redacted] rejected) after 1 attempt",
    );
  });

  it("reports an invalid response with the schema's issues and no value from the body", async () => {
    const { client } = await clientFor([json(200, [{ deviceid: "D1", status: "online", nmea: "" }])]);
    const error = (await client
      .onlineDevices()
      .catch((caught: unknown) => caught)) as DeviceCloudInvalidResponseError;
    expect(error).toBeInstanceOf(DeviceCloudInvalidResponseError);
    expect(error.issues.map((issue) => issue.path)).toEqual(["0.status", "0.updatetime"]);
    expect(error.message).not.toContain('online"');
  });

  it("times out each attempt and retries within the bound", async () => {
    const { client, requests } = await clientFor([silence], {
      timeoutMs: 50,
      retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await client.allDevices().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeviceCloudTimeoutError);
    expect(error).toMatchObject({ attempts: 3, timeoutMs: 50 });
    expect(requests).toHaveLength(3);
  });

  it("times out a body that stops half-way, as a time-out and not a dropped connection", async () => {
    const halfABody: Parameters<typeof startScriptedServer>[0][number] = (response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
      response.write('[{"deviceid":"D1",');
    };
    const { client, requests } = await clientFor([halfABody], {
      timeoutMs: 100,
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await client.allDevices().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeviceCloudTimeoutError);
    expect(error).toMatchObject({ attempts: 2, timeoutMs: 100 });
    expect(requests).toHaveLength(2);
  });

  it("stops at once, without retrying, when the caller aborts", async () => {
    const { client, requests } = await clientFor([silence], { timeoutMs: 5_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("deadline")), 50);
    await expect(client.allDevices({ signal: controller.signal })).rejects.toThrow("deadline");
    expect(requests).toHaveLength(1);
  });
});

describe("playback stream failures", () => {
  const ftypBox = Buffer.from("0000001866747970" + "69736f6d00000200" + "69736f6d6d703431", "hex");
  const start = new Date("2026-01-05T00:00:00Z");

  it("fails with an idle time-out when the body stalls after the first bytes", async () => {
    const stallAfterHead: Parameters<typeof startScriptedServer>[0][number] = (response) => {
      response.writeHead(200, { "content-type": "video/mp4", "content-length": "100000" });
      response.write(ftypBox);
    };
    const { client } = await clientFor([stallAfterHead], { playback: { idleTimeoutMs: 100 } });
    const download = await client.downloadPlayback({ deviceid: "D1", channel: 1, durationMinutes: 1, start });
    const error = await consume(download.body).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeviceCloudTimeoutError);
    expect(error).toMatchObject({ phase: "idle", timeoutMs: 100 });
  });

  it("fails as truncated when a chunked body is cut off", async () => {
    const cutChunked: Parameters<typeof startScriptedServer>[0][number] = (response) => {
      response.writeHead(200, { "content-type": "video/mp4" }); // no Content-Length: chunked
      response.write(ftypBox);
      response.write(Buffer.alloc(50_000));
      setTimeout(() => response.socket?.destroy(), 20);
    };
    const { client } = await clientFor([cutChunked]);
    const download = await client.downloadPlayback({ deviceid: "D1", channel: 1, durationMinutes: 1, start });
    expect(download.contentLength).toBeUndefined();
    const error = await consume(download.body).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlaybackTruncatedError);
    expect(error).toMatchObject({ expectedBytes: undefined });
    expect((error as PlaybackTruncatedError).receivedBytes).toBeGreaterThanOrEqual(ftypBox.length);
  });

  it("sniffs a JSON error page sent as 200", async () => {
    const { client } = await clientFor([json(200, { error: "no record" })]);
    const error = await client
      .downloadPlayback({ deviceid: "D1", channel: 1, durationMinutes: 1, start })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PlaybackNotMp4Error);
    expect(error).toMatchObject({ detectedAs: "json" });
  });
});

describe("event answers read as a stream", () => {
  const event = (serial: number) => ({
    serialno: String(serial),
    deviceid: "D1",
    eventtime: "2026-01-05T10:00:00.000Z",
    appdevid: 13,
  });
  /** Rows as `readEvents` handed them to the rows of each attempt. */
  const rowsPerAttempt = () => {
    const attempts: string[][] = [];
    return {
      attempts,
      open: () => {
        const rows: string[] = [];
        attempts.push(rows);
        return {
          rows,
          onEvent: (row: { serialno: bigint }) => void rows.push(`event ${row.serialno}`),
          onRejected: (row: { serialno?: bigint }) => void rows.push(`rejected ${row.serialno}`),
        };
      },
    };
  };

  it("hands on each row as it arrives, and starts over with fresh rows when an attempt is cut off", async () => {
    const body = JSON.stringify([event(1), { ...event(2), eventtime: "soon" }, event(3)]);
    const cutOff: Parameters<typeof startScriptedServer>[0][number] = (response) => {
      response.writeHead(200, { "content-type": "application/json" }); // chunked
      response.write(body.slice(0, body.indexOf('{"serialno":"3"')));
      setTimeout(() => response.socket?.destroy(), 20);
    };
    const inPieces: Parameters<typeof startScriptedServer>[0][number] = (response) => {
      response.writeHead(200, { "content-type": "application/json" });
      for (let at = 0; at < body.length; at += 7) response.write(body.slice(at, at + 7));
      response.end();
    };
    const { client, warnings } = await clientFor([cutOff, inPieces]);
    const { attempts, open } = rowsPerAttempt();
    const rows = await client.readEvents({ afterSerialno: 0 }, open);
    expect(attempts).toEqual([
      ["event 1", "rejected 2"],
      ["event 1", "rejected 2", "event 3"],
    ]);
    expect(rows.rows).toEqual(["event 1", "rejected 2", "event 3"]);
    expect(warnings).toHaveLength(1);
  });

  it("says what was wrong with an answer that is not an array, quoting none of it", async () => {
    const { client } = await clientFor([json(200, { message: `not today ${HASH}` })]);
    const error = await client.readEvents({}, rowsPerAttempt().open).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeviceCloudInvalidResponseError);
    expect((error as Error).message).toBe(
      "device cloud eventQuery (POST /gkevent/eventquery): expected a JSON array (content-type application/json)",
    );
  });

  it("quotes the service's own message on an HTTP error, read no further than it needs", async () => {
    const { client } = await clientFor([
      json(400, { message: `bad filter for ${HASH}`, padding: "x".repeat(200_000) }),
    ]);
    const error = await client.readEvents({}, rowsPerAttempt().open).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DeviceCloudHttpError);
    expect((error as Error).message).not.toContain(HASH);
  });
});

async function consume(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of stream) {
    // drain
  }
}
