import { format } from "node:util";
import { afterAll } from "vitest";

// A setup file of every test file (vitest.config.ts): what the file's tests and the code under test
// write to the run's output (console, stdout, stderr: where Lambda's logs would go) is passed on
// as before and watched for share-link tokens. A file whose output shows one fails in afterAll,
// naming the stream, never the token. Tests that swallow their output to read it (the incident
// app's and the acceptance test's logs) check it themselves.
//
// A token is 16 random bytes in base64url (22 characters; tests also make longer ones): it shows
// as a link's last segment or as a JSON "token" field.
const TOKEN_SHAPES = [/\/i\/[A-Za-z0-9_-]{20,}/, /"token"\s*:\s*"[A-Za-z0-9_-]{20,}"/];
const leaks = new Set<string>();

const watch = (where: string, text: string) => {
  if (TOKEN_SHAPES.some((shape) => shape.test(text))) leaks.add(where);
};

for (const [name, stream] of [
  ["stdout", process.stdout],
  ["stderr", process.stderr],
] as const) {
  const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    watch(name, typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return write(chunk, ...rest);
  }) as typeof stream.write;
}
for (const method of ["log", "info", "warn", "error", "debug"] as const) {
  const original = console[method].bind(console);
  console[method] = (...args: unknown[]) => {
    watch(`console.${method}`, format(...args));
    original(...args);
  };
}

afterAll(() => {
  if (leaks.size > 0)
    throw new Error(`a share-link token was written to ${[...leaks].join(", ")} by this test file`);
});
