import type { AlertRecord } from "@fleet-alerts/core/alerts";
import { BAG_FILES, type BagSource, manifestKey } from "@fleet-alerts/core/evidence";

// Where an alert's bag is, from its record, and the refusals: shared by `evidence pack` and the
// evidence function's claim-pack job.

/** Why an alert's bag cannot be packed. */
export type NoBagReason = "unknown-alert" | "no-evidence" | "no-bag";

export class NoBagError extends Error {
  override readonly name = "NoBagError";
  constructor(
    readonly reason: NoBagReason,
    message: string,
  ) {
    super(message);
  }
}

/** The bag's root in the evidence bucket: the folder of the evidence manifest the record lists. */
export function bagPrefixOf(alertId: string, record: AlertRecord): string {
  // Unavailable video is settled too: its bag holds the event, the track and the report saying why.
  if (record.evidenceStatus !== "stored" && record.evidenceStatus !== "unavailable")
    throw new NoBagError("no-evidence", `alert ${alertId} has no evidence stored: ${whyNotStored(record)}`);
  const manifestName = manifestKey("");
  const manifest = record.evidenceKeys?.find((key) => key.endsWith(`/${manifestName}`));
  if (!manifest)
    throw new NoBagError(
      "no-evidence",
      record.evidenceStatus === "unavailable"
        ? `alert ${alertId} has no evidence: the recorders had no video of the event's window (it was given up before claim packs)`
        : `alert ${alertId}: its record lists no evidence manifest`,
    );
  return manifest.slice(0, -manifestName.length);
}

function whyNotStored(record: AlertRecord): string {
  switch (record.evidenceStatus) {
    case "pending":
      return "it is still being collected";
    case "failed":
      return "collecting it failed";
    default:
      return record.evidence ? "none has been asked for yet" : "its rule asks for none";
  }
}

/** Refuses evidence stored before claim packs: a folder of clips and a manifest, but no bag. */
export async function withBag(source: BagSource, alertId: string): Promise<BagSource> {
  if (source.files.some(({ path }) => path === BAG_FILES.declaration)) return source;
  await source.close();
  throw new NoBagError(
    "no-bag",
    `the evidence of alert ${alertId} at ${source.location} has no bag (no ${BAG_FILES.declaration}): ` +
      "it was stored before claim packs, and can be copied but not packed",
  );
}
