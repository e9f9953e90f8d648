/**
 * Text every AWS service the pipeline writes to accepts, whatever the device cloud sent. SQS takes
 * only the characters of XML 1.0 (#x9, #xA, #xD, #x20-#xD7FF, #xE000-#xFFFD, #x10000-#x10FFFF) and
 * refuses a message holding any other with `InvalidMessageContents`; SNS hands its messages to SQS
 * subscriptions, so the same set holds for what is published. A driver's name with U+FFFF in a job
 * once failed its whole chunk on every retry: one name stopped a whole account's alerting.
 */
const OUTSIDE_AWS_TEXT = /[^\t\n\r\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const HAS_OUTSIDE_AWS_TEXT = new RegExp(OUTSIDE_AWS_TEXT.source, "u");

declare const awsJsonBrand: unique symbol;
/** JSON text that every AWS service accepts (made by `awsJson` only). */
export type AwsJson = string & { readonly [awsJsonBrand]: true };

/**
 * `value` as JSON in which every character outside SQS's set is a `\uXXXX` escape, so that a
 * reader's `JSON.parse` gets back exactly the value given. `JSON.stringify` already escapes control
 * characters and lone surrogates; what is left outside the set (U+FFFE, U+FFFF) can only stand
 * inside a JSON string, where the escape means the same character.
 */
export function awsJson(value: unknown): AwsJson {
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError("awsJson: the value has no JSON form");
  return json.replace(OUTSIDE_AWS_TEXT, unicodeEscape) as AwsJson;
}

/**
 * A text for a message attribute (a device id, say): unchanged when it is within SQS's set, as
 * every real one is; otherwise each character outside it written as `\uXXXX`, visibly.
 */
export function awsText(text: string): string {
  return text.replace(OUTSIDE_AWS_TEXT, unicodeEscape);
}

/** True when SQS (and so an SNS subscription's queue) would take the text as it is. */
export function isAwsText(text: string): boolean {
  return !HAS_OUTSIDE_AWS_TEXT.test(text);
}

function unicodeEscape(char: string): string {
  // Only single code units reach here: lone surrogates, controls, U+FFFE and U+FFFF.
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}
