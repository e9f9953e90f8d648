/**
 * fauxqs refuses what real SQS accepts. Its check of a message's characters, the regular expression
 * `INVALID_MESSAGE_BODY_CHAR` of `dist/sqs/sqsTypes.js` (1.9.2), has no `u` flag, so it reads every
 * character beyond the Basic Multilingual Plane as two lone surrogates and refuses it: an emoji in a
 * driver's name stopped the local mode, where AWS takes it. AWS's set is #x9 | #xA | #xD |
 * #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF (aws-text.ts). The module is the one fauxqs's own
 * handlers import (one module per file URL), and its expression is an object whose `test` the
 * handlers call: given AWS's test here, the emulator refuses exactly what SQS refuses.
 * `test/local/emulators.test.ts` checks both sides, so an upgrade that moves the check fails there.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { isAwsText } from "@fleet-alerts/core/aws-text";

const CHECK_MODULE = "fauxqs/dist/sqs/sqsTypes.js";

export async function giveFauxqsTheSqsCharacterSet(): Promise<void> {
  const candidates = createRequire(import.meta.url).resolve.paths("fauxqs") ?? [];
  const file = candidates.map((folder) => join(folder, CHECK_MODULE)).find((path) => existsSync(path));
  if (file === undefined) throw new Error(`fauxqs's ${CHECK_MODULE} not found: its character check moved`);
  const { INVALID_MESSAGE_BODY_CHAR: check } = (await import(pathToFileURL(file).href)) as {
    INVALID_MESSAGE_BODY_CHAR?: RegExp;
  };
  if (!(check instanceof RegExp))
    throw new Error(`fauxqs's ${CHECK_MODULE} has no INVALID_MESSAGE_BODY_CHAR`);
  Object.defineProperty(check, "test", { value: (text: string) => !isAwsText(text), configurable: true });
}
