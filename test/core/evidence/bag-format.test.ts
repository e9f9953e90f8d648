import { bagDeclaration, bagInfo, manifestOf, payloadOxum } from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";

const entry = (path: string, bytes: number, fill: string) => ({ path, bytes, sha256: fill.repeat(64) });

describe("the claim pack's BagIt texts (RFC 8493)", () => {
  it("declares BagIt 1.0 in UTF-8, in the RFC's two lines", () => {
    expect(bagDeclaration()).toBe("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n");
  });

  it("writes one `<hex>  <path>` line per file, sorted by path, as sha256sum reads them", () => {
    const text = manifestOf([
      entry("data/track.geojson", 10, "c"),
      entry("data/ch1.mp4", 1000, "a"),
      entry("data/ch1-part2.mp4", 500, "b"),
    ]);
    expect(text).toBe(
      `${"b".repeat(64)}  data/ch1-part2.mp4\n${"a".repeat(64)}  data/ch1.mp4\n${"c".repeat(64)}  data/track.geojson\n`,
    );
  });

  it("percent-encodes CR, LF and % in paths, and nothing else", () => {
    expect(manifestOf([entry("data/a%b\r\nc d.mp4", 1, "e")])).toBe(
      `${"e".repeat(64)}  data/a%25b%0D%0Ac d.mp4\n`,
    );
  });

  it("counts the payload's octets and files as Payload-Oxum", () => {
    expect(payloadOxum([entry("data/a", 1000, "a"), entry("data/b", 24, "b")])).toBe("1024.2");
    expect(payloadOxum([])).toBe("0.0");
  });

  it("writes bag-info.txt with single-line values and the bagging date in UTC", () => {
    const text = bagInfo(
      {
        sourceOrganization: "Example\nFleet  Ltd",
        externalIdentifier: "east:1000123:overspeed",
        externalDescription: "OverSpeed of device D1",
        baggingMs: Date.parse("2026-11-23T23:30:00-02:00"),
        softwareAgent: "fleet-alerts 0.1.0",
      },
      [entry("data/ch1.mp4", 1000, "a"), entry("data/event.json", 24, "b")],
    );
    expect(text).toBe(
      [
        "Source-Organization: Example Fleet Ltd",
        "External-Identifier: east:1000123:overspeed",
        "External-Description: OverSpeed of device D1",
        "Bagging-Date: 2026-11-24",
        "Bag-Software-Agent: fleet-alerts 0.1.0",
        "Payload-Oxum: 1024.2",
        "",
      ].join("\n"),
    );
  });
});
