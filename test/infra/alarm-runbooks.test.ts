import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { headingAnchors } from "../support/markdown.js";
import { synthesizedStage } from "../support/stage-synth.js";

// The "example" stage has every alarm the stack can make: two accounts (a cursor-lag alarm each)
// and a groups file (the notices function's alarm).
const KINDS = [
  "PollerErrors",
  "CursorLag",
  "SmsSpend",
  "EvidenceDlqNotEmpty",
  "ConfirmDlqNotEmpty",
  "EscalationDlqNotEmpty",
  "EvidenceFailures",
  "RejectedEvents",
  "NoticesErrors",
  "WebhookDlqNotEmpty",
];
let alarms: { id: string; description: string }[];
let anchors: Set<string>;

beforeAll(async () => {
  const { template } = await synthesizedStage("example");
  alarms = Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === "AWS::CloudWatch::Alarm")
    .map(([id, resource]) => ({ id, description: String(resource.Properties.AlarmDescription ?? "") }));
  anchors = headingAnchors(await readFile("docs/operate.md", "utf8"));
}, 180_000);

describe("every alarm's description", () => {
  it("covers every alarm the stack makes", () => {
    const kinds = alarms.map(({ id }) => KINDS.find((kind) => id.startsWith(kind)) ?? id);
    expect(new Set(kinds)).toEqual(new Set(KINDS));
    expect(kinds.filter((kind) => kind === "CursorLag")).toHaveLength(2);
  });

  it("ends with a link to a heading of docs/operate.md, within CloudWatch's 1024 characters", () => {
    const broken = alarms.filter(({ description }) => {
      const anchor = /Runbook: docs\/operate\.md#([\w-]+)$/.exec(description)?.[1];
      return anchor === undefined || !anchors.has(anchor) || description.length > 1024;
    });
    expect(broken).toEqual([]);
  });
});
