/** The files of a claim pack's bag root, by what they are. */
export const BAG_FILES = {
  declaration: "bagit.txt",
  info: "bag-info.txt",
  payloadManifest: "manifest-sha256.txt",
  custodyRecord: "manifest.json",
  report: "report.html",
  tagManifest: "tagmanifest-sha256.txt",
  /** The RFC 3161 token over the tag manifest's bytes: it cannot be in the tag manifest it stamps. */
  timestampToken: "tagmanifest-sha256.txt.tsr",
  /** Written after the token, to show it: outside every manifest. */
  timestampPage: "timestamp.html",
} as const;

/** Where the payload is: every file under it is listed in the payload manifest. */
export const PAYLOAD_FOLDER = "data/";

/** Every claim pack has these. */
export const REQUIRED_ROOT_FILES: readonly string[] = [
  BAG_FILES.declaration,
  BAG_FILES.info,
  BAG_FILES.payloadManifest,
  BAG_FILES.custodyRecord,
  BAG_FILES.report,
  BAG_FILES.tagManifest,
];

/** Present only when the stage stamps. */
export const OPTIONAL_ROOT_FILES: readonly string[] = [BAG_FILES.timestampToken, BAG_FILES.timestampPage];

/** The tag files the tag manifest guards: a change to any of them must show. */
export const HASHED_TAG_FILES: readonly string[] = [
  BAG_FILES.declaration,
  BAG_FILES.info,
  BAG_FILES.payloadManifest,
  BAG_FILES.custodyRecord,
  BAG_FILES.report,
];

export function isPayloadPath(path: string): boolean {
  return path.startsWith(PAYLOAD_FOLDER);
}
