import { inspect } from "node:util";

export const REDACTED = "[redacted]";

/**
 * A value that must never be printed: it shows as `[redacted]` in string conversion, JSON and
 * `util.inspect` (so loggers and test output cannot leak it), and gives its value only on `reveal()`.
 * Used for the Wi-Fi password (`net_wfpwd`) the device settings carry.
 */
export class Secret<T = string> {
  readonly #value: T;

  constructor(value: T) {
    this.#value = value;
  }

  reveal(): T {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

/** Replaces every occurrence of each secret in `text` (case-insensitively) with `[redacted]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) {
    if (secret.length === 0) continue;
    const pattern = new RegExp(secret.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi");
    redacted = redacted.replace(pattern, REDACTED);
  }
  return redacted;
}
