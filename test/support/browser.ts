import chromiumPackage from "@sparticuz/chromium";
import { type Browser, chromium, type Page } from "playwright-core";

/**
 * Headless Chromium from the @sparticuz/chromium package (no system browser, no download). Only
 * `--no-sandbox`: the package's own `args` are made for Lambda (`--single-process`, web security
 * off), under which a page's CSP and cross-site tests would pass for the wrong reason.
 */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: await chromiumPackage.executablePath(),
    args: ["--no-sandbox"],
    headless: true,
  });
}

/**
 * A page of a fresh context whose every request is recorded and whose requests for anything but a
 * local file are refused: what a report opened from disk asks for, and that it gets nothing else.
 */
export async function openRecordedPage(
  browser: Browser,
  url: string,
): Promise<{ page: Page; requests: string[]; console: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  await context.route("**/*", (route) =>
    route.request().url().startsWith("file:") ? route.continue() : route.abort("blockedbyclient"),
  );
  const page = await context.newPage();
  const requests: string[] = [];
  const console: string[] = [];
  page.on("request", (request) => requests.push(request.url()));
  page.on("console", (message) => console.push(message.text()));
  await page.goto(url);
  return { page, requests, console };
}

/** The map's and the chart's sizes on the page, and each video's duration once it can play. */
export async function reportAsShown(
  page: Page,
): Promise<{ figures: { width: number; height: number }[]; durations: number[] }> {
  // For a screenshot: headless Chromium paints players and frames only inside the viewport, so the
  // viewport becomes the whole page before the players load (a resize later shows spinners).
  const height = await page.evaluate<number>("document.documentElement.scrollHeight");
  await page.setViewportSize({ width: 1000, height });
  const figures = [];
  for (const figure of ["svg.track-map", "svg.speed-chart"])
    figures.push((await page.locator(figure).boundingBox()) ?? { width: 0, height: 0 });
  // Chromium runs the expression in the page (this project compiles without the DOM's types).
  await page.waitForFunction(
    `[...document.querySelectorAll("video")].every((video) => video.readyState >= 2)`,
    null,
    { timeout: 30_000 },
  );
  const durations = await page.evaluate<number[]>(
    `[...document.querySelectorAll("video")].map((video) => video.duration)`,
  );
  return { figures, durations };
}
