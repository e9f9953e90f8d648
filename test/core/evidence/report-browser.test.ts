import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { renderClaimReport, renderTimestampPage } from "@fleet-alerts/core/evidence";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, openRecordedPage, reportAsShown } from "../../support/browser.js";
import { type ClipFacts, claimReportModel } from "../../support/claim-report-model.js";
import { encodeTestClip } from "../../support/h264-clip.js";

const SCREENSHOT = fileURLToPath(new URL("../../../test-artifacts/claim-report.png", import.meta.url));
const CLIP_SECONDS = 60;
/** One background per channel, so the screenshot tells the players apart. */
const CHANNEL_COLOURS = [
  [40, 70, 120],
  [50, 110, 60],
] as const;
const TSA_NAME = "CN=Fleet Test TSA, O=Example Trust";
const TIMESTAMP_FRAME = 'iframe[title="The time-stamp token of this bag"]';

let browser: Browser;
let bag: string;

/** A bag folder as a reader receives it: the report, its clips and timestamp.html beside it. */
async function writeBag(folder: string): Promise<void> {
  await mkdir(join(folder, "data"));
  const clipFacts: ClipFacts[] = [];
  // One at a time: the encoders share one virtual file system.
  for (const [index, rgb] of CHANNEL_COLOURS.entries()) {
    const clip = await encodeTestClip({ seconds: CLIP_SECONDS, rgb });
    await writeFile(join(folder, `data/ch${index + 1}.mp4`), clip);
    clipFacts.push({ bytes: clip.length, sha256: createHash("sha256").update(clip).digest("hex") });
  }
  await writeFile(join(folder, "report.html"), renderClaimReport(claimReportModel(clipFacts)));
  const certificate = {
    notBefore: "2026-01-01T00:00:00Z",
    notAfter: "2031-01-01T00:00:00Z",
    sha256Fingerprint: "5e".repeat(32),
  };
  const timestampPage = renderTimestampPage({
    status: "stamped",
    facts: {
      genTime: "2026-07-14T08:16:33Z",
      tsaName: TSA_NAME,
      serialNumber: "0x2f9c41",
      policy: "1.3.6.1.4.1.4146.2.3",
      messageImprintSha256: "3a".repeat(32),
      chain: [
        { ...certificate, subject: TSA_NAME, issuer: "CN=Example Trust Root", serialNumber: "0x11" },
        {
          ...certificate,
          subject: "CN=Example Trust Root",
          issuer: "CN=Example Trust Root",
          serialNumber: "0x01",
        },
      ],
    },
  });
  await writeFile(join(folder, "timestamp.html"), timestampPage);
}

beforeAll(async () => {
  bag = await mkdtemp(join(tmpdir(), "claim-report-"));
  await writeBag(bag);
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  if (bag) await rm(bag, { recursive: true, force: true });
});

describe("report.html in a real browser, opened from the bag's folder", () => {
  it("shows the map, the chart, both clips and the time-stamp, asking for nothing outside the folder", async () => {
    const folderUrl = pathToFileURL(bag).href;
    const { page, requests } = await openRecordedPage(browser, `${folderUrl}/report.html`);

    const { figures, durations } = await reportAsShown(page);
    for (const figure of figures) {
      expect(figure.width).toBeGreaterThan(0);
      expect(figure.height).toBeGreaterThan(0);
    }
    expect(durations).toHaveLength(2);
    for (const duration of durations) expect(Math.abs(duration - CLIP_SECONDS)).toBeLessThanOrEqual(0.5);

    const frame = page.frameLocator(TIMESTAMP_FRAME);
    await frame.getByRole("heading", { name: "Time-stamped" }).waitFor({ state: "visible" });
    expect(await frame.getByText(TSA_NAME).first().isVisible()).toBe(true);

    expect(requests.filter((url) => !url.startsWith(`${folderUrl}/`))).toEqual([]);
    expect(requests).toEqual(
      expect.arrayContaining(
        ["report.html", "timestamp.html", "data/ch1.mp4", "data/ch2.mp4"].map(
          (file) => `${folderUrl}/${file}`,
        ),
      ),
    );

    // The players' spinner ends its last turn about a second after they stop fetching; nothing in the
    // page tells when (it is inside the players' closed shadow roots), so the screenshot waits it out.
    await page.waitForFunction(
      `[...document.querySelectorAll("video")].every((video) => video.networkState === HTMLMediaElement.NETWORK_IDLE)`,
    );
    await page.waitForTimeout(1_500);
    await mkdir(join(SCREENSHOT, ".."), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
  }, 60_000);

  it("the page's own policy blocks script and other hosts, should markup ever slip in", async () => {
    const tampered = join(bag, "tampered.html");
    const html = renderClaimReport(claimReportModel()).replace(
      "</body>",
      `<script>document.title = "script ran"</script><img src="https://tiles.example.net/1/1/1.png"></body>`,
    );
    await writeFile(tampered, html);
    const { page, console } = await openRecordedPage(browser, pathToFileURL(tampered).href);
    await page.waitForLoadState("load");
    expect(await page.title()).not.toBe("script ran");
    const violations = console.filter((text) =>
      text.includes("violates the following Content Security Policy"),
    );
    expect(violations.some((text) => text.includes("inline script"))).toBe(true);
    expect(violations.some((text) => text.includes("https://tiles.example.net/1/1/1.png"))).toBe(true);
    await rm(tampered);
  }, 60_000);
});
