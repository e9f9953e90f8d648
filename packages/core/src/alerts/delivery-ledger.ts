import type { Route } from "../routing/route.js";
import type { AlertRecords } from "./ports.js";
import type { Publication, Publications } from "./publication-store.js";
import type { AlertRecord } from "./record.js";

/** An alert that went out (or had no one to send to now), with what to remember of it. */
export interface PublishedAlert {
  record: AlertRecord;
  messageId: string | undefined;
  route: Route;
  publishedAtMs: number;
}

/**
 * Where the delivery of alerts is kept: which records still owe their publication, which went
 * out, and which had their jobs (evidence, webhooks, first escalation) sent. Delivery asks it and
 * tells it; it does not care whether each record keeps its own or the chunk keeps them all.
 */
export interface DeliveryLedger {
  owes(record: AlertRecord): boolean;
  published(alerts: readonly PublishedAlert[]): Promise<void>;
  owesJobs(record: AlertRecord): boolean;
  handedOn(records: readonly AlertRecord[]): Promise<void>;
}

/**
 * Each record keeps its own delivery: pending until marked published, its jobs sent once marked.
 * The Offline confirmation's alerts (one at a time), and any pending record a poller's window holds.
 */
export class RecordLedger implements DeliveryLedger {
  constructor(
    private readonly alerts: AlertRecords,
    private readonly now: () => number,
  ) {}

  owes(record: AlertRecord): boolean {
    return record.status === "pending" && record.message !== undefined;
  }

  async published(alerts: readonly PublishedAlert[]): Promise<void> {
    // Distinct records: marked concurrently; the step is over only when every mark is written.
    await Promise.all(
      alerts.map(({ record, messageId, publishedAtMs, route }) =>
        this.alerts.markPublished(record, messageId, publishedAtMs, route),
      ),
    );
  }

  owesJobs(record: AlertRecord): boolean {
    return record.status === "published" && record.handedOnAt === undefined;
  }

  async handedOn(records: readonly AlertRecord[]): Promise<void> {
    const nowMs = this.now();
    await Promise.all(records.map((record) => this.alerts.markHandedOn(record, nowMs)));
  }
}

/**
 * A poller's window: its records are written `published` once, before they go out, naming their
 * chunk (`chunkFrom`), and the chunk's publication item says which went out and which had their
 * jobs sent (a `stale` record's, which is never published, is its evidence job alone): one write
 * per chunk and step in place of one per alert. A record of an earlier chunk
 * (the cursor was moved back) is judged by that chunk's item; a record without a chunk, by itself.
 */
export class ChunkLedger implements DeliveryLedger {
  private constructor(
    private readonly account: string,
    private readonly publications: Publications,
    private readonly byChunk: Map<bigint, Publication>,
    private readonly ownRecords: RecordLedger,
  ) {}

  /**
   * The ledger of a window whose own chunk (`from`) was opened as `opened`, reading the items of
   * any other chunk its records name (none, unless the cursor was moved back).
   */
  static async of(
    window: { account: string; from: bigint; opened: Publication },
    records: readonly AlertRecord[],
    publications: Publications,
    ownRecords: RecordLedger,
  ): Promise<ChunkLedger> {
    const byChunk = new Map([[window.from, window.opened]]);
    const others = [...new Set(records.map((record) => record.chunkFrom))].filter(
      (from): from is bigint => from !== undefined && !byChunk.has(from),
    );
    await Promise.all(
      others.map(async (from) => {
        // No item: the chunk's run never got to open it, so nothing of it went out.
        const found = await publications.get(window.account, from);
        byChunk.set(from, found ?? { decidedAtMs: 0, published: new Set(), handedOn: new Set() });
      }),
    );
    return new ChunkLedger(window.account, publications, byChunk, ownRecords);
  }

  owes(record: AlertRecord): boolean {
    const publication = this.#publicationOf(record);
    if (!publication) return this.ownRecords.owes(record);
    return (
      record.status === "published" &&
      record.message !== undefined &&
      !publication.published.has(record.alertId)
    );
  }

  async published(alerts: readonly PublishedAlert[]): Promise<void> {
    await Promise.all([
      this.ownRecords.published(alerts.filter(({ record }) => !this.#publicationOf(record))),
      this.#add(
        alerts.map(({ record }) => record),
        "published",
        (from, ids) => this.publications.addPublished(this.account, from, ids),
      ),
    ]);
  }

  owesJobs(record: AlertRecord): boolean {
    const publication = this.#publicationOf(record);
    if (!publication) return this.ownRecords.owesJobs(record);
    if (publication.handedOn.has(record.alertId)) return false;
    // A stale record is never published; its evidence job is owed from the moment it is recorded.
    return record.status === "stale" || publication.published.has(record.alertId);
  }

  async handedOn(records: readonly AlertRecord[]): Promise<void> {
    await Promise.all([
      this.ownRecords.handedOn(records.filter((record) => !this.#publicationOf(record))),
      this.#add(records, "handedOn", (from, ids) => this.publications.addHandedOn(this.account, from, ids)),
    ]);
  }

  #publicationOf(record: AlertRecord): Publication | undefined {
    return record.chunkFrom === undefined ? undefined : this.byChunk.get(record.chunkFrom);
  }

  /** Adds the records of each chunk to its item's set, one write per chunk, then to the copy here. */
  async #add(
    records: readonly AlertRecord[],
    set: "published" | "handedOn",
    write: (from: bigint, alertIds: string[]) => Promise<void>,
  ): Promise<void> {
    const idsByChunk = new Map<bigint, string[]>();
    for (const record of records) {
      if (!this.#publicationOf(record)) continue;
      const from = record.chunkFrom as bigint;
      const ids = idsByChunk.get(from) ?? [];
      ids.push(record.alertId);
      idsByChunk.set(from, ids);
    }
    await Promise.all(
      [...idsByChunk].map(async ([from, ids]) => {
        await write(from, ids);
        const publication = this.byChunk.get(from) as Publication;
        for (const id of ids) publication[set].add(id);
      }),
    );
  }
}
