import chromiumPackage from "@sparticuz/chromium";
import { type Browser, chromium } from "playwright-core";

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
