import type { FaultRule, Simulator } from "@fleet-alerts/simulator";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, DEMO, post, startSmall } from "./helpers.js";

const onlineList = (simulator: Simulator) => post<unknown>(simulator, "/gkdevice/onlinelist", DEMO);

describe("fault injection", () => {
  let simulator: Simulator;

  beforeAll(async () => {
    simulator = await startSmall({ devices: 3, historyHours: 2 });
  });
  afterEach(() => {
    simulator.control.faults.clear();
    simulator.control.resetRequests();
  });
  afterAll(() => simulator.close());

  it.each([
    ["status500", 500, "internal_error"],
    ["status503", 503, "service_unavailable"],
    ["status429", 429, "rate_limited"],
  ] as const)("%s answers %i with a JSON error and Retry-After when asked", async (kind, status, code) => {
    simulator.control.faults.add({ endpoint: "onlinelist", kind, retryAfterSeconds: 7 });
    const response = await onlineList(simulator);
    expect(response.status).toBe(status);
    expect(response.json).toEqual({ error: code, message: expect.any(String) });
    expect(response.headers.get("retry-after")).toBe(kind === "status500" ? null : "7");
    expect(simulator.control.requests).toEqual([
      { endpoint: "onlinelist", method: "POST", status, fault: kind, at: expect.any(Date) },
    ]);
  });

  it("htmlPage200 answers 200 with an HTML proxy page", async () => {
    simulator.control.faults.add({ endpoint: "*", kind: "htmlPage200" });
    const response = await onlineList(simulator);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.text).toMatch(/^<!DOCTYPE html>/);
  });

  it("malformedJson answers 200 application/json that is not JSON", async () => {
    simulator.control.faults.add({ endpoint: "onlinelist", kind: "malformedJson" });
    const response = await onlineList(simulator);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(() => JSON.parse(response.text)).toThrow(SyntaxError);
  });

  it("truncatedJson answers the first half of the real body, with a matching Content-Length", async () => {
    const intact = await post<unknown>(simulator, "/gkdevice/alllist", ADMIN);
    simulator.control.faults.add({ endpoint: "alllist", kind: "truncatedJson", times: 1 });
    const response = await post<unknown>(simulator, "/gkdevice/alllist", ADMIN);
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("content-length"))).toBe(Buffer.byteLength(response.text));
    expect(response.text).toBe(intact.text.slice(0, Math.floor(intact.text.length / 2)));
    expect(() => JSON.parse(response.text)).toThrow(SyntaxError);
  });

  it("connectionReset drops the connection without a response", async () => {
    simulator.control.faults.add({ endpoint: "onlinelist", kind: "connectionReset", times: 1 });
    await expect(onlineList(simulator)).rejects.toThrow(TypeError);
    expect(simulator.control.requests[0]).toMatchObject({
      endpoint: "onlinelist",
      status: null,
      fault: "connectionReset",
    });
    expect((await onlineList(simulator)).status).toBe(200);
  });

  it("playbackCut on a JSON endpoint announces the full length and closes early", async () => {
    simulator.control.faults.add({ endpoint: "alllist", kind: "playbackCut", cutAfterBytes: 20 });
    const response = await fetch(`${simulator.url}/gkdevice/alllist`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    expect(response.status).toBe(200);
    expect(Number(response.headers.get("content-length"))).toBeGreaterThan(20);
    await expect(response.text()).rejects.toThrow();
  });

  it("latency delays the response and combines with another fault", async () => {
    simulator.control.faults.add({ endpoint: "gps", kind: "latency", latencyMs: 150 });
    simulator.control.faults.add({ endpoint: "onlinelist", kind: "latency", latencyMs: 150 });
    simulator.control.faults.add({ endpoint: "onlinelist", kind: "status503" });
    const started = performance.now();
    const response = await onlineList(simulator);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(response.status).toBe(503);
    expect(simulator.control.requests[0]).toMatchObject({ status: 503, fault: "status503", latencyMs: 150 });
  });

  it("times limits a rule to the next N firings; the request log counts the retries", async () => {
    simulator.control.faults.add({ endpoint: "onlinelist", kind: "status503", times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await onlineList(simulator)).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect(simulator.control.requests.map((entry) => [entry.endpoint, entry.status, entry.fault])).toEqual([
      ["onlinelist", 503, "status503"],
      ["onlinelist", 503, "status503"],
      ["onlinelist", 200, undefined],
    ]);
    expect(simulator.control.faults.list()).toEqual([]);
    simulator.control.resetRequests();
    expect(simulator.control.requests).toEqual([]);
  });

  it("scopes a rule to its endpoint; '*' matches them all", async () => {
    simulator.control.faults.add({ endpoint: "gps", kind: "status500" });
    expect((await onlineList(simulator)).status).toBe(200);
    simulator.control.faults.add({ endpoint: "*", kind: "status429" });
    expect((await onlineList(simulator)).status).toBe(429);
    expect((await post(simulator, "/api/gps", { ...DEMO, deviceid: "x", start: 0, end: 1 })).status).toBe(
      500,
    );
  });

  it("rejects an invalid rule", () => {
    const invalid: FaultRule[] = [
      { endpoint: "gps", kind: "latency" },
      { endpoint: "gps", kind: "status500", probability: 2 },
      { endpoint: "gps", kind: "status500", times: 0 },
    ];
    for (const rule of invalid)
      expect(() => simulator.control.faults.add(rule)).toThrow(/invalid fault rule/);
  });
});

describe("fault injection on playback", () => {
  it("playbackCut closes the clip after cutAfterBytes, having announced the full length", async () => {
    const simulator = await startSmall({ devices: 1, historyHours: 1 });
    try {
      const deviceid = simulator.control.devices()[0]?.deviceid ?? "";
      const start = simulator.control.now().getTime() - 30 * 60_000;
      simulator.control.setRecording(deviceid, new Date(start), new Date(start + 60_000), 1);
      const url = `${simulator.url}/dlplayback/${deviceid}@1/1/${encodeURIComponent(
        `${new Date(start).toISOString().slice(0, 19)}+0000`,
      )}/${DEMO.username}/${DEMO.password}`;
      simulator.control.faults.add({ endpoint: "dlplayback", kind: "playbackCut", cutAfterBytes: 100_000 });
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const announced = Number(response.headers.get("content-length"));
      expect(announced).toBeGreaterThan((512_000 / 8) * 60);
      await expect(response.arrayBuffer()).rejects.toThrow();
      expect(simulator.control.playbacks[0]).toMatchObject({
        totalBytes: announced,
        bytesWritten: 100_000,
        cut: true,
        finished: false,
      });
      expect(simulator.control.requests[0]).toMatchObject({
        endpoint: "dlplayback",
        status: 200,
        fault: "playbackCut",
      });
    } finally {
      await simulator.close();
    }
  });
});

describe("seeded fault probabilities", () => {
  it("fire the same way for the same seed", async () => {
    const faults: FaultRule[] = [{ endpoint: "onlinelist", kind: "status500", probability: 0.5 }];
    const sequence = async () => {
      const simulator = await startSmall({ devices: 1, historyHours: 0, seed: 9, faults });
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 20; i++) statuses.push((await onlineList(simulator)).status);
        return statuses;
      } finally {
        await simulator.close();
      }
    };
    const first = await sequence();
    expect(await sequence()).toEqual(first);
    expect(new Set(first)).toEqual(new Set([200, 500]));
  });
});
