import { labelValues, type PayloadOxum, parseLabels, parsePayloadOxum, type TagLabel } from "./bag-info.js";
import { BAG_FILES, isPayloadPath, OPTIONAL_ROOT_FILES, REQUIRED_ROOT_FILES } from "./bag-layout.js";
import type { Inspection } from "./inspection.js";

const ROOT_FILES = new Set([...REQUIRED_ROOT_FILES, ...OPTIONAL_ROOT_FILES]);

/** The bag root holds the claim pack's tag files, all the required ones, and data/; nothing else. */
export function checkLayout(inspection: Inspection): void {
  for (const path of REQUIRED_ROOT_FILES) {
    if (!inspection.has(path)) inspection.report({ kind: "missing-file", path, detail: "is not in the bag" });
  }
  for (const { path } of inspection.source.files) {
    if (!isPayloadPath(path) && !ROOT_FILES.has(path))
      inspection.report({
        kind: "unexpected-file",
        path,
        detail: "is not a file of a claim pack: outside data/, only its tag files belong",
      });
  }
}

/** bagit.txt declares BagIt 1.0 and UTF-8 tag files. */
export async function checkDeclaration(inspection: Inspection): Promise<void> {
  const labels = await readLabels(inspection, BAG_FILES.declaration);
  if (labels === undefined) return;
  const expected: [label: string, value: string][] = [
    ["BagIt-Version", "1.0"],
    ["Tag-File-Character-Encoding", "UTF-8"],
  ];
  for (const [label, value] of expected) {
    const values = labelValues(labels, label);
    // Encoding names compare without regard to case; "1.0" has none.
    if (values.length !== 1 || values[0]?.toUpperCase() !== value)
      inspection.report({
        kind: "malformed",
        path: BAG_FILES.declaration,
        detail: `must declare "${label}: ${value}" once; it has ${describeValues(values)}`,
      });
  }
}

/** bag-info.txt's Payload-Oxum states the octets and the number of the files under data/. */
export async function checkPayloadOxum(inspection: Inspection): Promise<void> {
  const path = BAG_FILES.info;
  const labels = await readLabels(inspection, path);
  if (labels === undefined) return;
  const values = labelValues(labels, "Payload-Oxum");
  const declared = values.length === 1 && values[0] !== undefined ? parsePayloadOxum(values[0]) : undefined;
  if (declared === undefined) {
    inspection.report({
      kind: "malformed",
      path,
      detail: `must have one Payload-Oxum "<octets>.<files>"; it has ${describeValues(values)}`,
    });
    return;
  }
  const actual = payloadOxumOf(inspection);
  if (actual.octets !== declared.octets || actual.files !== declared.files)
    inspection.report({
      kind: "oxum-mismatch",
      path,
      detail:
        `Payload-Oxum says ${declared.octets}.${declared.files}; ` +
        `data/ holds ${actual.octets} octets in ${actual.files} files`,
    });
}

export function payloadOxumOf(inspection: Inspection): PayloadOxum {
  const payload = inspection.source.files.filter(({ path }) => isPayloadPath(path));
  return { octets: payload.reduce((sum, { size }) => sum + size, 0), files: payload.length };
}

async function readLabels(inspection: Inspection, path: string): Promise<TagLabel[] | undefined> {
  const text = await inspection.text(path);
  if (text === undefined) return undefined;
  const { labels, problems } = parseLabels(text);
  for (const detail of problems) inspection.report({ kind: "malformed", path, detail });
  return labels;
}

function describeValues(values: readonly string[]): string {
  return values.length === 0 ? "none" : values.map((value) => `"${value}"`).join(", ");
}
