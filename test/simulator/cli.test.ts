import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sha256Upper } from "./helpers.js";

const CLI = fileURLToPath(new URL("../../packages/simulator/src/cli.ts", import.meta.url));

/** Collects stdout until `pattern` appears. */
function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => reject(new Error(`timed out; output so far:\n${output}`)), 15_000);
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (pattern.test(output)) {
        clearTimeout(timer);
        resolve(output);
      }
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}; output:\n${output}`)));
  });
}

describe("simulator CLI", () => {
  it("prints the notice, the URL and the plain demo accounts, serves (coordinates as strings), reports hours, and stops on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        CLI,
        "--local-mode-notice",
        "--port",
        "0",
        "--devices",
        "3",
        "--history-hours",
        "1",
        "--speed",
        "36000",
        "--account",
        "ops:pa:ss",
        "--account",
        "chief:boss:admin",
        "--event-coordinates",
        "strings",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const output = await waitForOutput(child, /\+1h\]/);
      expect(output.indexOf("Notice: `npm start` currently runs only the device-cloud simulator")).toBe(0);
      expect(output).toContain("ops / pa:ss");
      expect(output).toContain("chief / boss  (administrator)");
      expect(output).not.toContain(sha256Upper("boss"));
      const url = /listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      const response = await fetch(`${url}/gkdevice/registered`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "chief", password: sha256Upper("boss") }),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toHaveLength(3);
      const events = await fetch(`${url}/gkevent/eventquery`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "ops", password: sha256Upper("pa:ss"), columns: ["vehiclex"] }),
      });
      const coordinates = ((await events.json()) as { vehiclex: unknown }[])
        .map((event) => event.vehiclex)
        .filter((vehiclex) => vehiclex !== null);
      expect(coordinates.length).toBeGreaterThan(0);
      for (const vehiclex of coordinates) expect(vehiclex).toMatch(/^\d+\.\d{6}$/);
    } finally {
      child.kill("SIGTERM");
    }
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
  });

  it("rejects an --event-coordinates mode other than numbers, strings or null", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, "--event-coordinates", "nulls"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let errors = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      errors += chunk.toString();
    });
    const [code] = await once(child, "exit");
    expect(code).not.toBe(0);
    expect(errors).toContain("argument 'nulls' is invalid. Allowed choices are numbers, strings, null.");
  });
});
