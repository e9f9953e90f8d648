/**
 * The texts of a BagIt bag (RFC 8493, version 1.0) as the claim pack writes them: pure, so that a
 * replay after a crash writes the same bytes again. The files' names: bag-layout.ts; the layout
 * and its order: docs/design/claim-pack.md.
 */

export const BAGIT_VERSION = "1.0";

/** A file of the bag: its path from the bag's root, with `/`, and the SHA-256 of its bytes. */
export interface BagEntry {
  path: string;
  bytes: number;
  sha256: string;
}

export interface BagInfo {
  sourceOrganization: string;
  /** The alert id. */
  externalIdentifier: string;
  externalDescription: string;
  /** When the bag was made; written as its UTC date. */
  baggingMs: number;
  softwareAgent: string;
}

export function bagDeclaration(): string {
  return `BagIt-Version: ${BAGIT_VERSION}\nTag-File-Character-Encoding: UTF-8\n`;
}

/**
 * `bag-info.txt`. Values are made single-line: a line break would start a label of its own (the
 * RFC's continuation lines are indented, and a value from config has no reason to need one).
 */
export function bagInfo(info: BagInfo, payload: readonly BagEntry[]): string {
  const labels: [string, string][] = [
    ["Source-Organization", info.sourceOrganization],
    ["External-Identifier", info.externalIdentifier],
    ["External-Description", info.externalDescription],
    ["Bagging-Date", new Date(info.baggingMs).toISOString().slice(0, 10)],
    ["Bag-Software-Agent", info.softwareAgent],
    ["Payload-Oxum", payloadOxum(payload)],
  ];
  return labels.map(([label, value]) => `${label}: ${value.replace(/\s+/g, " ").trim()}\n`).join("");
}

/** `<octets>.<files>`: the payload's total size and file count, a quick check before the hashes. */
export function payloadOxum(payload: readonly BagEntry[]): string {
  return `${payload.reduce((total, entry) => total + entry.bytes, 0)}.${payload.length}`;
}

/**
 * A manifest: `<hex>  <path>` per file, sorted by path. Two spaces, as `sha256sum` writes, so that
 * `sha256sum -c manifest-sha256.txt` in the bag's folder checks it with no other software.
 */
export function manifestOf(entries: readonly BagEntry[]): string {
  return [...entries]
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
    .map((entry) => `${entry.sha256}  ${encodeManifestPath(entry.path)}\n`)
    .join("");
}

/** RFC 8493 §2.1.3: CR, LF and `%` in a path are percent-encoded; nothing else is. */
function encodeManifestPath(path: string): string {
  return path.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A");
}
