import { createHash } from "node:crypto";
import { inspect } from "node:util";
import * as z from "zod";
import { DeviceCloudInvalidArgumentError, toValidationIssues } from "./errors.js";
import { REDACTED } from "./secret.js";

/** The spec: `password` is always the uppercase hexadecimal SHA-256 digest of the account password. */
export const passwordHashSchema = z
  .string()
  .regex(/^[0-9A-F]{64}$/, "must be the SHA-256 digest as 64 uppercase hexadecimal characters");

export function hashPassword(plainPassword: string): string {
  return createHash("sha256").update(plainPassword, "utf8").digest("hex").toUpperCase();
}

/**
 * Either the plain password (hashed here, then forgotten) or an already-hashed value. The two are
 * separate fields on purpose: guessing from the shape would misread a plain password that happens
 * to be 64 hex characters.
 */
export const credentialsInputSchema = z.union([
  z.strictObject({ username: z.string().min(1), password: z.string().min(1) }),
  z.strictObject({ username: z.string().min(1), passwordHash: passwordHashSchema }),
]);
export type CredentialsInput = z.input<typeof credentialsInputSchema>;

/**
 * An API account. The hash is held in a private field and the object prints without it, so that
 * logging a client or its options cannot leak it.
 */
export class Credentials {
  readonly username: string;
  readonly #passwordHash: string;

  private constructor(username: string, passwordHash: string) {
    this.username = username;
    this.#passwordHash = passwordHash;
  }

  /** @throws DeviceCloudInvalidArgumentError (naming the field, never its value) when malformed. */
  static from(input: CredentialsInput): Credentials {
    const result = credentialsInputSchema.safeParse(input);
    if (!result.success) {
      throw new DeviceCloudInvalidArgumentError("configuration", toValidationIssues(result.error.issues));
    }
    const parsed = result.data;
    const hash = "passwordHash" in parsed ? parsed.passwordHash : hashPassword(parsed.password);
    return new Credentials(parsed.username, hash);
  }

  /** The value the service expects in `password`; it is a credential too, handle it as one. */
  get passwordHash(): string {
    return this.#passwordHash;
  }

  toJSON(): { username: string; password: string } {
    return { username: this.username, password: REDACTED };
  }

  [inspect.custom](): string {
    return `Credentials { username: ${JSON.stringify(this.username)}, password: ${REDACTED} }`;
  }
}
