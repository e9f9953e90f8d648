/**
 * A small strict JSON reader that keeps big integers exact.
 *
 * Why not JSON.parse: `afterSerialno`/`beforeSerialno` are JSON numbers that can exceed 2^53, and
 * JSON.parse on Node 20 rounds them before any reviver sees the source text. This reader returns
 * integer tokens outside the safe range as `bigint` and everything else as JSON.parse would.
 */
export type JsonValue = null | boolean | number | bigint | string | JsonValue[] | JsonObject;
export interface JsonObject {
  [key: string]: JsonValue;
}

export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} at offset ${offset}`);
  }
}

/** Deep nesting only appears in hostile bodies; refuse it instead of exhausting the stack. */
const MAX_DEPTH = 64;
const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
const LITERALS: readonly (readonly [string, JsonValue])[] = [
  ["true", true],
  ["false", false],
  ["null", null],
];

export function parseJson(text: string): JsonValue {
  const reader = new Reader(text);
  reader.skipWhitespace();
  const value = reader.value(0);
  reader.skipWhitespace();
  if (reader.position < text.length)
    throw new JsonSyntaxError("unexpected text after the value", reader.position);
  return value;
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

class Reader {
  position = 0;

  constructor(private readonly text: string) {}

  skipWhitespace(): void {
    while (this.position < this.text.length) {
      const char = this.text[this.position];
      if (char !== " " && char !== "\t" && char !== "\n" && char !== "\r") return;
      this.position++;
    }
  }

  value(depth: number): JsonValue {
    if (depth > MAX_DEPTH) throw new JsonSyntaxError("nesting too deep", this.position);
    const char = this.text[this.position];
    if (char === "{") return this.object(depth);
    if (char === "[") return this.array(depth);
    if (char === '"') return this.string();
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return this.number();
    for (const [word, literal] of LITERALS) {
      if (this.text.startsWith(word, this.position)) {
        this.position += word.length;
        return literal;
      }
    }
    throw new JsonSyntaxError(
      char === undefined ? "unexpected end of text" : "unexpected character",
      this.position,
    );
  }

  private object(depth: number): JsonObject {
    // A prototype-less object: a body key such as "__proto__" stays a plain key.
    const result: JsonObject = Object.create(null);
    this.position++;
    if (this.closes("}")) return result;
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.position] !== '"')
        throw new JsonSyntaxError("expected a property name", this.position);
      const key = this.string();
      this.skipWhitespace();
      this.expect(":");
      this.skipWhitespace();
      result[key] = this.value(depth + 1);
      if (this.closes("}")) return result;
      this.expect(",");
    }
  }

  private array(depth: number): JsonValue[] {
    const result: JsonValue[] = [];
    this.position++;
    if (this.closes("]")) return result;
    for (;;) {
      this.skipWhitespace();
      result.push(this.value(depth + 1));
      if (this.closes("]")) return result;
      this.expect(",");
    }
  }

  private string(): string {
    const start = this.position;
    let index = start + 1;
    for (;;) {
      const code = this.text.charCodeAt(index);
      if (Number.isNaN(code)) throw new JsonSyntaxError("unterminated string", start);
      if (code === 0x22) break;
      if (code < 0x20) throw new JsonSyntaxError("control character in string", index);
      index += code === 0x5c ? 2 : 1;
    }
    this.position = index + 1;
    try {
      // The token is delimited and free of raw control characters; JSON.parse decodes its escapes.
      return JSON.parse(this.text.slice(start, this.position)) as string;
    } catch {
      throw new JsonSyntaxError("invalid escape in string", start);
    }
  }

  private number(): number | bigint {
    NUMBER_TOKEN.lastIndex = this.position;
    const match = NUMBER_TOKEN.exec(this.text);
    if (!match) throw new JsonSyntaxError("invalid number", this.position);
    this.position = NUMBER_TOKEN.lastIndex;
    const token = match[0];
    const isInteger = match[1] === undefined && match[2] === undefined;
    const value = Number(token);
    return isInteger && !Number.isSafeInteger(value) ? BigInt(token) : value;
  }

  /** Skips white space, then consumes `char` (an object's or array's end) if it comes next. */
  private closes(char: string): boolean {
    this.skipWhitespace();
    if (this.text[this.position] !== char) return false;
    this.position++;
    return true;
  }

  private expect(char: string): void {
    if (this.text[this.position] !== char) throw new JsonSyntaxError(`expected '${char}'`, this.position);
    this.position++;
  }
}
