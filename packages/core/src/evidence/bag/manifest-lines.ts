/*
 * BagIt manifest lines (RFC 8493 §2.1.3, §2.2.1): `<checksum> <path>`, one or more spaces or tabs
 * between them, lines ended by LF, CR or CRLF. In a path, CR, LF and `%` (and only those) are
 * percent-encoded, so that every path fits on one line.
 */

/** One listed file: the SHA-256 its manifest states (lower-case hex) and its path, decoded. */
export interface ManifestEntry {
  sha256: string;
  path: string;
  /** From 1, for messages. */
  line: number;
}

export interface ParsedManifest {
  entries: ManifestEntry[];
  /** Lines that could not be read, each said in words with its number. */
  problems: string[];
}

const LINE = /^([0-9A-Fa-f]{64})[ \t]+(.+)$/;
const DECODED: Record<string, string> = { "0D": "\r", "0A": "\n", "25": "%" };
const ENCODED: Record<string, string> = { "\r": "%0D", "\n": "%0A", "%": "%25" };

export function parseManifest(text: string): ParsedManifest {
  const lines = text.split(/\r\n|\r|\n/);
  // The last line's terminator leaves one empty string behind.
  if (lines.at(-1) === "") lines.pop();
  const entries: ManifestEntry[] = [];
  const problems: string[] = [];
  lines.forEach((content, index) => {
    const line = index + 1;
    const match = LINE.exec(content);
    if (!match) {
      problems.push(`line ${line} is not "<64 hex digits> <path>"`);
      return;
    }
    const [, sha256 = "", encodedPath = ""] = match;
    const path = decodeManifestPath(encodedPath);
    if (path === undefined) {
      problems.push(`line ${line}: a "%" in the path is not one of %0D, %0A, %25`);
      return;
    }
    const unsafe = unsafePathReason(path);
    if (unsafe) {
      problems.push(`line ${line}: the path ${encodedPath} ${unsafe}`);
      return;
    }
    entries.push({ sha256: sha256.toLowerCase(), path, line });
  });
  return { entries, problems };
}

/** The path as the file system knows it; undefined when it holds a `%` a conforming writer would not have written. */
export function decodeManifestPath(encoded: string): string | undefined {
  if (/%(?!0D|0A|25)/i.test(encoded)) return undefined;
  return encoded.replace(/%(0D|0A|25)/gi, (_, hex: string) => DECODED[hex.toUpperCase()] ?? "");
}

/** The path as a manifest line writes it (and as it can be printed on one line). */
export function encodeManifestPath(path: string): string {
  return path.replace(/[\r\n%]/g, (character) => ENCODED[character] ?? character);
}

/** Why a listed path could name a file outside the bag (RFC 8493 §2.1.3), or undefined when it cannot. */
function unsafePathReason(path: string): string | undefined {
  if (path.startsWith("/")) return "is absolute";
  const segments = path.split("/");
  if (segments.includes("..")) return 'climbs out with ".."';
  if (segments.some((segment) => segment === "" || segment === ".")) return "has an empty or '.' segment";
  return undefined;
}
