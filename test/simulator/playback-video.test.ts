import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { encodeClip, type Simulator } from "@fleet-alerts/simulator";
import chromiumPackage from "@sparticuz/chromium";
import { type Browser, chromium, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO, startSmall } from "./helpers.js";

// Unpacking and launching the browser takes a few seconds; a page and a clip a few more.
const BROWSER_TIMEOUT_MS = 60_000;
const CLIP_START = Date.UTC(2026, 0, 4, 23, 10, 0);

interface VideoState {
  readyState: number;
  duration: number;
  width: number;
  height: number;
  error: number | null;
}

// Page scripts are passed as text: the test transform may add helpers the page does not have.
const VIDEO_STATE = `(() => {
  const video = document.querySelector("video");
  return { readyState: video.readyState, duration: video.duration, width: video.videoWidth,
    height: video.videoHeight, error: video.error && video.error.code };
})()`;

describe("playback clips in a browser (headless Chromium)", () => {
  let browser: Browser;
  let simulator: Simulator;
  let folder: string;

  beforeAll(async () => {
    // The browser's own arguments are made for Lambda (single process, no web security): not those.
    // File access from files lets the file page read its video's pixels, as from its own origin.
    browser = await chromium.launch({
      executablePath: await chromiumPackage.executablePath(),
      args: ["--no-sandbox", "--allow-file-access-from-files"],
      headless: true,
    });
    simulator = await startSmall({
      devices: 2,
      historyHours: 1,
      clock: { start: new Date(CLIP_START + 3_600_000) },
    });
    folder = await mkdtemp(join(tmpdir(), "playback-video-"));
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await simulator?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  /** A page that can reach nothing but 127.0.0.1 and local files. */
  async function localPage(): Promise<Page> {
    const page = await browser.newPage();
    await page.route("**/*", (route) => {
      const url = new URL(route.request().url());
      return url.protocol === "file:" || url.hostname === "127.0.0.1" ? route.continue() : route.abort();
    });
    return page;
  }

  async function videoState(page: Page): Promise<VideoState> {
    await page.waitForFunction(`(${VIDEO_STATE}).readyState >= 2 || (${VIDEO_STATE}).error !== null`);
    return (await page.evaluate(VIDEO_STATE)) as VideoState;
  }

  it(
    "plays a clip the simulator serves, with the requested duration and 320×240",
    async () => {
      const deviceid = simulator.control.devices()[0]?.deviceid ?? "";
      simulator.control.setRecording(deviceid, new Date(CLIP_START), new Date(CLIP_START + 2 * 60_000), 1);
      const timestamp = encodeURIComponent(`${new Date(CLIP_START).toISOString().slice(0, 19)}+0000`);
      const url = `${simulator.url}/dlplayback/${deviceid}@1/2/${timestamp}/${DEMO.username}/${DEMO.password}`;
      const page = await localPage();
      await page.setContent(`<video muted preload="auto" src="${url}"></video>`);
      const state = await videoState(page);
      expect(state).toMatchObject({ duration: 120, width: 320, height: 240, error: null });
      expect(state.readyState).toBeGreaterThanOrEqual(2);
    },
    BROWSER_TIMEOUT_MS,
  );

  it(
    "plays and seeks a clip made with encodeClip, opened as a file: the picture is the one of that time",
    async () => {
      const clip = await encodeClip({
        deviceid: "0012345678",
        channel: 3,
        startMs: CLIP_START,
        durationMinutes: 2,
        utcOffsetMinutes: 60,
      });
      await writeFile(join(folder, "clip.mp4"), clip);
      await writeFile(join(folder, "clip.html"), '<video muted preload="auto" src="clip.mp4"></video>');
      const page = await localPage();
      await page.goto(pathToFileURL(join(folder, "clip.html")).href);
      expect(await videoState(page)).toMatchObject({ duration: 120, width: 320, height: 240, error: null });

      // 75 s into the clip, the progress bar at the bottom of the frame is 75/120 of 320 = 200 px long.
      const seeked = (await page.evaluate(`new Promise((resolve) => {
        const video = document.querySelector("video");
        video.addEventListener("seeked", () => {
          const canvas = document.createElement("canvas");
          canvas.width = 320;
          canvas.height = 240;
          const context = canvas.getContext("2d");
          context.drawImage(video, 0, 0);
          const row = context.getImageData(0, 231, 320, 1).data;
          let lit = 0;
          for (let x = 0; x < 320; x++) if (row[4 * x] > 90) lit++;
          resolve({ at: video.currentTime, lit });
        }, { once: true });
        video.currentTime = 75;
      })`)) as { at: number; lit: number };
      expect(seeked.at).toBe(75);
      // Give or take the blur of compression at the bar's end.
      expect(Math.abs(seeked.lit - 200)).toBeLessThanOrEqual(2);
    },
    BROWSER_TIMEOUT_MS,
  );
});
