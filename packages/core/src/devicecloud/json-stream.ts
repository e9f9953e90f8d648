import { Tokenizer, TokenParser } from "@streamparser/json";
import type { BodySink } from "./http-post.js";

/** Why a body streamed as a JSON array could not be read as one. */
export class JsonArrayStreamError extends Error {
  constructor(
    readonly reason: "html" | "not-an-array" | "invalid" | "incomplete",
    message: string,
  ) {
    super(message);
    this.name = "JsonArrayStreamError";
  }
}

/** A JSON number's own digits, until it is known whether it is a serial number (json.ts). */
class NumberText {
  constructor(readonly text: string) {}
}

class NumberTextTokenizer extends Tokenizer {
  // The tokenizer's numbers become values as they are; this keeps their text, settled per element.
  protected override parseNumber(text: string): number {
    return new NumberText(text) as unknown as number;
  }
}

/**
 * Reads a body that must be a JSON array, element by element as its bytes arrive: each element of
 * the top level goes to `onElement` once whole, and nothing else is kept, so an answer of any
 * length is never one string or one array. Elements read as `parseJsonKeepingSerials` reads a
 * whole body (json.ts): a numeric `serialno` keeps its exact digits (as a string), and a lone
 * surrogate escape becomes U+FFFD.
 */
export class JsonArrayStream implements BodySink {
  readonly #tokenizer = new NumberTextTokenizer();
  readonly #parser = new TokenParser({ paths: ["$.*"], keepStack: false });
  /** Bytes received so far. */
  #bytes = 0;
  #started = false;

  constructor(onElement: (element: unknown) => void) {
    this.#tokenizer.onToken = (token) => this.#parser.write(token);
    this.#parser.onValue = ({ value }) => onElement(settle(value, undefined));
    // The array closed: the tokenizer takes nothing more (but blanks, checked in `write`).
    this.#parser.onEnd = () => {
      if (!this.#tokenizer.isEnded) this.#tokenizer.end();
    };
    const invalid = (error: Error) => {
      throw error instanceof JsonArrayStreamError
        ? error
        : new JsonArrayStreamError("invalid", `not valid JSON near byte ${this.#bytes}`);
    };
    this.#tokenizer.onError = invalid;
    this.#parser.onError = invalid;
  }

  get bytes(): number {
    return this.#bytes;
  }

  write(chunk: Buffer): void {
    if (!this.#started) this.#checkStart(chunk);
    this.#bytes += chunk.length;
    if (this.#tokenizer.isEnded) {
      if (chunk.toString("utf8").trim() !== "")
        throw new JsonArrayStreamError(
          "invalid",
          `not valid JSON: more follows the array at byte ${this.#bytes}`,
        );
      return;
    }
    this.#tokenizer.write(chunk);
  }

  end(): void {
    if (!this.#started)
      throw new JsonArrayStreamError("not-an-array", "expected a JSON array but the body is empty");
    if (!this.#tokenizer.isEnded)
      throw new JsonArrayStreamError(
        "incomplete",
        `not valid JSON: the array ends early (${this.#bytes} bytes)`,
      );
  }

  // The first byte that is not blank (nor part of a byte-order mark) says whether this can be an
  // array; it may come after any number of chunks of blanks.
  #checkStart(chunk: Buffer): void {
    for (const [index, byte] of chunk.entries()) {
      const offset = this.#bytes + index;
      if (offset < BOM.length && byte === BOM[offset]) continue;
      if (BLANKS.has(byte)) continue;
      this.#started = true;
      if (byte === LESS_THAN) throw new JsonArrayStreamError("html", "expected JSON but got an HTML page");
      if (byte !== LEFT_BRACKET) throw new JsonArrayStreamError("not-an-array", "expected a JSON array");
      return;
    }
  }
}

const BOM = [0xef, 0xbb, 0xbf];
const BLANKS = new Set([0x20, 0x09, 0x0a, 0x0d]);
const LESS_THAN = 0x3c;
const LEFT_BRACKET = 0x5b;

/** An element as `JSON.parse` would make it, with serial numbers kept exact and strings well formed. */
function settle(value: unknown, key: string | undefined): unknown {
  if (value instanceof NumberText) return key === "serialno" ? value.text : Number(value.text);
  if (typeof value === "string") return value.toWellFormed();
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) value[index] = settle(item, undefined);
    return value;
  }
  if (typeof value === "object" && value !== null) {
    const record = value as Record<string, unknown>;
    for (const name of Object.keys(record)) {
      const settled = settle(record[name], name);
      // Defined, not assigned: an own `__proto__` member must stay a member, as JSON.parse keeps it.
      if (settled !== record[name])
        Object.defineProperty(record, name, {
          value: settled,
          writable: true,
          enumerable: true,
          configurable: true,
        });
    }
  }
  return value;
}
