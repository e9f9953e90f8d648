import { decodeManifestPath, encodeManifestPath, parseManifest } from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";

const HASH = "ab".repeat(32);

describe("manifest lines", () => {
  it("reads `<hex> <path>` lines with one or more spaces or tabs, any line ending, hex in either case", () => {
    const text = `${HASH}  data/ch1.mp4\r\n${HASH.toUpperCase()} data/ch2.mp4\r${HASH}\tdata/event.json\n`;
    expect(parseManifest(text)).toEqual({
      entries: [
        { sha256: HASH, path: "data/ch1.mp4", line: 1 },
        { sha256: HASH, path: "data/ch2.mp4", line: 2 },
        { sha256: HASH, path: "data/event.json", line: 3 },
      ],
      problems: [],
    });
  });

  it("decodes %0D, %0A and %25 in a path (RFC 8493 §2.1.3), and nothing else", () => {
    expect(decodeManifestPath("data/a%0Db%0aC%25d.mp4")).toBe("data/a\rb\nC%d.mp4");
    // A literal "%0A" in a name is written %250A: it must come back as written, not as a line feed.
    expect(decodeManifestPath("data/100%250A.json")).toBe("data/100%0A.json");
    expect(decodeManifestPath("data/%41.mp4")).toBeUndefined();
    expect(decodeManifestPath("data/50%")).toBeUndefined();
    expect(encodeManifestPath("data/a\rb\nC%d.mp4")).toBe("data/a%0Db%0AC%25d.mp4");
  });

  it("names each line it cannot read, and each path that could leave the bag, and keeps the others", () => {
    const text = [
      `${HASH}  data/ok.mp4`,
      "not a manifest line",
      `${HASH.slice(1)}  data/short-hash.mp4`,
      `${HASH}  /etc/passwd`,
      `${HASH}  data/../../secret`,
      `${HASH}  data//double`,
      `${HASH}  data/%41`,
      "",
      `${HASH}  data/last.mp4`,
    ].join("\n");
    const { entries, problems } = parseManifest(text);
    expect(entries.map(({ path, line }) => `${line} ${path}`)).toEqual(["1 data/ok.mp4", "9 data/last.mp4"]);
    expect(problems).toEqual([
      'line 2 is not "<64 hex digits> <path>"',
      'line 3 is not "<64 hex digits> <path>"',
      "line 4: the path /etc/passwd is absolute",
      'line 5: the path data/../../secret climbs out with ".."',
      "line 6: the path data//double has an empty or '.' segment",
      'line 7: a "%" in the path is not one of %0D, %0A, %25',
      'line 8 is not "<64 hex digits> <path>"',
    ]);
  });
});
