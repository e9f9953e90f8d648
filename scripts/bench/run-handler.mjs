/**
 * Runs one bundled Lambda handler once in this fresh process, as the Lambda runtime would:
 * `node run-handler.mjs`, with HANDLER_BUNDLE (the bundle's path) and HANDLER_EVENT_FILE (the event's
 * JSON file), HANDLER_REMAINING_MS (the time the invocation has; default 900,000 ms) and the rest of
 * its configuration in the environment (scripts/bench/lambda-process.ts
 * starts it as Lambda would: this script must be the command's last word). Plain JavaScript,
 * so that no TypeScript loader sits in the memory measured. The last line printed is JSON: the
 * handler's response, the invocation's duration and the process's peak resident memory.
 */
import { readFile } from "node:fs/promises";
import { pathToFileURL } from "node:url";
import { peakRssBytes } from "./peak-rss.mjs";

const {
  HANDLER_BUNDLE: bundle,
  HANDLER_EVENT_FILE: eventFile,
  HANDLER_REMAINING_MS: remainingMs,
} = process.env;
if (!bundle || !eventFile)
  throw new Error("HANDLER_BUNDLE and HANDLER_EVENT_FILE must name the bundle and the event file");
const event = JSON.parse(await readFile(eventFile, "utf8"));
const { handler } = await import(pathToFileURL(bundle).href);
const context = {
  functionName: "bench",
  awsRequestId: "bench",
  getRemainingTimeInMillis: () => Number(remainingMs ?? 900_000),
};
const started = performance.now();
const response = await handler(event, context);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({ response, seconds, peakRssBytes: await peakRssBytes() }));
