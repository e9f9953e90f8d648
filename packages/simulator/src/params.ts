/**
 * Strict reading of POST body fields. The spec shows no validation rules, so the simulator is
 * strict on purpose (a client bug shows up as a 400 instead of silently wrong data):
 * - a field of the wrong JSON type, or `null`, is 400 `invalid_parameter`;
 * - a missing required field is 400 `missing_parameter`;
 * - a field the endpoint does not define is 400 `unknown_parameter`.
 * Messages name the field, never its value.
 */
import { HttpError } from "./http.js";
import type { JsonObject, JsonValue } from "./json.js";

export function rejectUnknownFields(body: JsonObject, allowed: readonly string[]): void {
  const unknown = Object.keys(body).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw new HttpError(400, "unknown_parameter", `unknown body field(s): ${unknown.join(", ")}`);
  }
}

export function requiredString(body: JsonObject, name: string): string {
  return required(name, optionalString(body, name));
}

export function optionalString(body: JsonObject, name: string): string | undefined {
  return read(body, name, "a string", (value) => (typeof value === "string" ? value : undefined));
}

export function requiredInteger(body: JsonObject, name: string): number {
  return required(name, optionalInteger(body, name));
}

export function optionalInteger(body: JsonObject, name: string): number | undefined {
  return read(body, name, "an integer", (value) =>
    typeof value === "number" && Number.isSafeInteger(value) ? value : undefined,
  );
}

/** A non-negative integer JSON number of any size (serial numbers exceed 2^53). */
export function optionalSerialNumber(body: JsonObject, name: string): bigint | undefined {
  return read(body, name, "a non-negative integer number", (value) => {
    if (typeof value === "bigint") return value >= 0n ? value : undefined;
    return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? BigInt(value) : undefined;
  });
}

export function optionalBoolean(body: JsonObject, name: string): boolean | undefined {
  return read(body, name, "a boolean", (value) => (typeof value === "boolean" ? value : undefined));
}

export function optionalStringArray(body: JsonObject, name: string): string[] | undefined {
  return read(body, name, "an array of strings", (value) =>
    Array.isArray(value) && value.every((item) => typeof item === "string") ? (value as string[]) : undefined,
  );
}

export function invalid(name: string, expectation: string): HttpError {
  return new HttpError(400, "invalid_parameter", `${name} must be ${expectation}`);
}

function read<T>(
  body: JsonObject,
  name: string,
  expectation: string,
  convert: (value: JsonValue) => T | undefined,
): T | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  const converted = convert(value);
  if (converted === undefined) throw invalid(name, expectation);
  return converted;
}

function required<T>(name: string, value: T | undefined): T {
  if (value === undefined) throw new HttpError(400, "missing_parameter", `${name} is required`);
  return value;
}
