import { labelValues, parseLabels, parsePayloadOxum } from "@fleet-alerts/core/evidence";
import { describe, expect, it } from "vitest";

describe("tag files of labels", () => {
  it("reads `Label: value` lines, joins continued lines, and finds labels without regard to case", () => {
    const { labels, problems } = parseLabels(
      "Source-Organization: Example\nExternal-Description: a long\n  description\r\nPayload-Oxum: 12.3\n",
    );
    expect(problems).toEqual([]);
    expect(labels).toEqual([
      { label: "Source-Organization", value: "Example" },
      { label: "External-Description", value: "a long description" },
      { label: "Payload-Oxum", value: "12.3" },
    ]);
    expect(labelValues(labels, "payload-oxum")).toEqual(["12.3"]);
    expect(labelValues(labels, "Bagging-Date")).toEqual([]);
  });

  it("names the lines that are not labels", () => {
    expect(parseLabels("Good: yes\nno colon here\n: no label\nTight:value\n").problems).toEqual([
      'line 2 is not "Label: value"',
      'line 3 is not "Label: value"',
      'line 4 is not "Label: value"',
    ]);
  });

  it("reads Payload-Oxum as octets and files, and refuses anything else", () => {
    expect(parsePayloadOxum("8001.4")).toEqual({ octets: 8001, files: 4 });
    for (const bad of ["8001", "8001.", ".4", "8001.4.1", "-1.4", "1e3.4", "99999999999999999999.1"])
      expect(parsePayloadOxum(bad), bad).toBeUndefined();
  });
});
