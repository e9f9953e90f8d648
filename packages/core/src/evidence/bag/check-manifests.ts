import { BAG_FILES, HASHED_TAG_FILES, isPayloadPath } from "./bag-layout.js";
import type { Inspection } from "./inspection.js";
import { encodeManifestPath, type ManifestEntry, parseManifest } from "./manifest-lines.js";

/**
 * manifest-sha256.txt: every line well-formed, every listed file there with the stated SHA-256,
 * every file under data/ listed, and nothing listed twice or outside data/.
 */
export async function checkPayloadManifest(inspection: Inspection): Promise<void> {
  const manifest = BAG_FILES.payloadManifest;
  const entries = await readManifest(inspection, manifest);
  if (entries === undefined) return;
  for (const entry of entries) {
    if (isPayloadPath(entry.path)) await checkListedFile(inspection, manifest, entry);
    else
      inspection.report({
        kind: "malformed",
        path: manifest,
        detail: `line ${entry.line} lists ${encodeManifestPath(entry.path)}, which is outside data/`,
      });
  }
  const listed = new Set(entries.map(({ path }) => path));
  for (const { path } of inspection.source.files) {
    if (isPayloadPath(path) && !listed.has(path))
      inspection.report({ kind: "unlisted-file", path, detail: `is not listed in ${manifest}` });
  }
}

/**
 * tagmanifest-sha256.txt: every line well-formed, every listed file there with the stated SHA-256,
 * and every hashed tag file the bag has listed (the spec requires bagit.txt, bag-info.txt and
 * manifest-sha256.txt; a claim pack's writer lists manifest.json and report.html as well, and one
 * left out could be changed unseen).
 */
export async function checkTagManifest(inspection: Inspection): Promise<void> {
  const manifest = BAG_FILES.tagManifest;
  const entries = await readManifest(inspection, manifest);
  if (entries === undefined) return;
  for (const entry of entries) await checkListedFile(inspection, manifest, entry);
  const listed = new Set(entries.map(({ path }) => path));
  for (const path of HASHED_TAG_FILES) {
    if (inspection.has(path) && !listed.has(path))
      inspection.report({
        kind: "unlisted-file",
        path,
        detail: `is not listed in ${manifest}, so nothing shows whether it was changed`,
      });
  }
}

/** The manifest's entries, each path once; its unreadable lines and repeated paths are reported. */
async function readManifest(inspection: Inspection, manifest: string): Promise<ManifestEntry[] | undefined> {
  const text = await inspection.text(manifest);
  if (text === undefined) return undefined;
  const { entries, problems } = parseManifest(text);
  for (const detail of problems) inspection.report({ kind: "malformed", path: manifest, detail });
  const seen = new Set<string>();
  return entries.filter((entry) => {
    if (!seen.has(entry.path)) {
      seen.add(entry.path);
      return true;
    }
    inspection.report({
      kind: "malformed",
      path: manifest,
      detail: `line ${entry.line} lists ${encodeManifestPath(entry.path)} again`,
    });
    return false;
  });
}

async function checkListedFile(
  inspection: Inspection,
  manifest: string,
  entry: ManifestEntry,
): Promise<void> {
  if (!inspection.has(entry.path)) {
    // A required tag file that is missing has been named by the layout check already.
    if (!inspection.hasReported("missing-file", entry.path))
      inspection.report({
        kind: "missing-file",
        path: entry.path,
        detail: `is listed in ${manifest} (line ${entry.line}) but not in the bag`,
      });
    return;
  }
  const actual = await inspection.sha256(entry.path);
  if (actual !== undefined && actual !== entry.sha256)
    inspection.report({
      kind: "hash-mismatch",
      path: entry.path,
      detail: `its SHA-256 is ${actual}; ${manifest} (line ${entry.line}) says ${entry.sha256}`,
    });
}
