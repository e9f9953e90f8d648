import { inspect } from "node:util";
import { Credentials, DeviceCloudInvalidArgumentError, hashPassword } from "@fleet-alerts/core/devicecloud";
import { describe, expect, it } from "vitest";

// SHA-256("demo"), uppercase: computed independently with `printf demo | sha256sum`.
const DEMO_HASH = "2A97516C354B68848CDBD8F54A226A0A55B21ED138E207AD6C5CBB9C00AA5AEA";

describe("credentials", () => {
  it("hashes a plain password to uppercase hexadecimal SHA-256", () => {
    expect(hashPassword("demo")).toBe(DEMO_HASH);
    expect(Credentials.from({ username: "demo", password: "demo" }).passwordHash).toBe(DEMO_HASH);
  });

  it("takes an already-hashed value as it is", () => {
    expect(Credentials.from({ username: "demo", passwordHash: DEMO_HASH }).passwordHash).toBe(DEMO_HASH);
  });

  it("refuses a hash that is not 64 uppercase hex characters, without echoing it", () => {
    const lowercase = DEMO_HASH.toLowerCase();
    const error = catchError(() => Credentials.from({ username: "demo", passwordHash: lowercase }));
    expect(error).toBeInstanceOf(DeviceCloudInvalidArgumentError);
    expect(error.message).toMatch(/64 uppercase hexadecimal/);
    expect(error.message.toLowerCase()).not.toContain(lowercase);
    expect(() => Credentials.from({ username: "demo", passwordHash: DEMO_HASH.slice(1) })).toThrow(
      DeviceCloudInvalidArgumentError,
    );
  });

  it("refuses an empty username or password", () => {
    expect(() => Credentials.from({ username: "", password: "x" })).toThrow(DeviceCloudInvalidArgumentError);
    expect(() => Credentials.from({ username: "demo", password: "" })).toThrow(
      DeviceCloudInvalidArgumentError,
    );
  });

  it("never prints the password or its hash through JSON, inspect or string conversion", () => {
    const plain = "correct horse battery";
    const credentials = Credentials.from({ username: "ops", password: plain });
    for (const printed of [
      JSON.stringify(credentials),
      inspect(credentials, { showHidden: true }),
      String(credentials),
    ]) {
      expect(printed).not.toContain(hashPassword(plain));
      expect(printed).not.toContain(plain);
    }
    expect(JSON.stringify(credentials)).toBe('{"username":"ops","password":"[redacted]"}');
  });
});

function catchError(run: () => unknown): Error {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected an error");
}
