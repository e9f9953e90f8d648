/**
 * JSON for serial numbers of any size. The spec types `serialno` as a string in events but the
 * `afterSerialno`/`beforeSerialno` filters as numbers; a JSON number above 2^53 loses digits in
 * `JSON.parse`/`JSON.stringify` (Node 20 has neither `JSON.rawJSON` nor the reviver's source text),
 * so serial numbers travel as bigint and are written and read as exact digits here.
 */

export type JsonBodyValue = string | number | boolean | bigint | readonly string[];

/**
 * Serializes a flat request body. A bigint is written as a JSON number with all its digits, which
 * `JSON.stringify` cannot do. Bodies of this service are flat objects, so nothing deeper is needed.
 */
export function stringifyFlatBody(body: Readonly<Record<string, JsonBodyValue | undefined>>): string {
  const members: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined) continue;
    const encoded = typeof value === "bigint" ? value.toString() : JSON.stringify(value);
    members.push(`${JSON.stringify(key)}:${encoded}`);
  }
  return `{${members.join(",")}}`;
}

// A `"serialno": <number>` member in raw JSON text. Inside a JSON string the quotes around the key
// would be escaped (\"serialno\"), so this cannot match text inside another field's value.
const numericSerialno = /("serialno"\s*:\s*)(-?\d[\d.eE+-]*)/g;

/**
 * Parses a response, first quoting any numeric `serialno` so that its digits survive: the spec
 * says events carry it as a string, but a service sending a large number must not make us compare
 * a rounded value. The schema then checks the quoted text is an integer.
 */
export function parseJsonKeepingSerials(text: string): unknown {
  // Most answers (GPS points, device lists) have no serial number: no need to scan them twice.
  const quoted = text.includes('"serialno"') ? text.replace(numericSerialno, '$1"$2"') : text;
  return JSON.parse(quoted, SURROGATE_ESCAPE.test(text) ? wellFormedStrings : undefined);
}

// A `\uD800`-`\uDFFF` escape. JSON may spell a lone surrogate so, which no UTF-8 store or channel can
// carry (DynamoDB, S3, SNS): each becomes U+FFFD on reading, as a UTF-8 decoder does with bytes
// that encode nothing. A pair (an emoji written as two escapes) is kept as it is.
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

function wellFormedStrings(_key: string, value: unknown): unknown {
  return typeof value === "string" ? value.toWellFormed() : value;
}
