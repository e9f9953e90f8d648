import { randomUUID } from "node:crypto";
import { LEASE_MARGIN_MS } from "../cursor/account-lock.js";
import type { LeaseGuard } from "../cursor/fence.js";
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
  /** Whether the record is owed, as far as the ledger knows now (what delivery plans routes for). */
  owes(record: AlertRecord): boolean;
  /**
   * Claims the publication of `records` just before they go out: those this delivery owes and may
   * publish now, decided by what the claim's own write returns, never by an earlier copy. Two
   * deliveries that claim the same record publish it once. Throws a FencedError when the delivery
   * may publish nothing more (a poll whose lease a later poll took).
   */
  claim(records: readonly AlertRecord[]): Promise<AlertRecord[]>;
  published(alerts: readonly PublishedAlert[]): Promise<void>;
  owesJobs(record: AlertRecord): boolean;
  handedOn(records: readonly AlertRecord[]): Promise<void>;
}

/**
 * How long a record's publication claim holds: longer than any function that publishes single
 * records can run after it claimed one (the recorder audit's 4 minutes, the Offline confirmation's
 * and the poller's 1; checked in infra/), on the wall clock. A claim a crashed delivery left is
 * taken over after it.
 */
export const RECORD_CLAIM_LEASE_MS = 5 * 60_000;

/**
 * Each record keeps its own delivery: pending until marked published, its jobs sent once marked.
 * The Offline confirmation's and the recorder audit's alerts (one at a time), and any pending
 * record a poller's window holds. A delivery claims each record before it publishes it (a
 * conditional write with this delivery's token): of two deliveries of one record at once, one
 * publishes, and the other finds it `busy`.
 */
export class RecordLedger implements DeliveryLedger {
  readonly #token = randomUUID();
  #busy: AlertRecord[] = [];

  constructor(
    private readonly alerts: AlertRecords,
    /** `now`: the business clock, for the records' times; `wallClock` (Date.now): for the claims. */
    private readonly clocks: { now: () => number; wallClock?: (() => number) | undefined },
  ) {}

  owes(record: AlertRecord): boolean {
    return record.status === "pending" && record.message !== undefined;
  }

  async claim(records: readonly AlertRecord[]): Promise<AlertRecord[]> {
    const wallClock = this.clocks.wallClock ?? Date.now;
    const nowMs = wallClock();
    const untilMs = nowMs + RECORD_CLAIM_LEASE_MS;
    const claims = await Promise.all(
      records.map((record) => this.alerts.claimPublication(record, { token: this.#token, nowMs, untilMs })),
    );
    this.#busy = records.filter((_, index) => claims[index] === "busy");
    // Past its claim's time, less what a Publish takes to land, a delivery publishes nothing: its
    // records are left to the delivery that takes the claims over.
    if (wallClock() >= untilMs - LEASE_MARGIN_MS) return [];
    return records.filter((_, index) => claims[index] === "claimed");
  }

  /** The records its last claim found held by another delivery's live claim: that one sends them, or a later delivery takes them over. */
  get busy(): readonly AlertRecord[] {
    return this.#busy;
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
    const nowMs = this.clocks.now();
    await Promise.all(records.map((record) => this.alerts.markHandedOn(record, nowMs)));
  }
}

/** The window a ChunkLedger keeps: its chunk, opened, and the lease of the poll that opened it. */
export interface LedgerWindow {
  account: string;
  /** The cursor the chunk was read after: its publication item's key. */
  from: bigint;
  opened: Publication;
  guard: LeaseGuard;
}

/**
 * A poller's window: its records are written `published` once, before they go out, naming their
 * chunk (`chunkFrom`), and the chunk's publication item says which went out and which had their
 * jobs sent (a `stale` record's, which is never published, is its evidence job alone): one write
 * per chunk and step in place of one per alert. A record of an earlier chunk
 * (the cursor was moved back) is judged by that chunk's item; a record without a chunk, by itself.
 * The chunk's item is claimed, fenced by the poll's lease, just before the window's alerts go out.
 */
export class ChunkLedger implements DeliveryLedger {
  private constructor(
    private readonly window: LedgerWindow,
    private readonly publications: Publications,
    private readonly byChunk: Map<bigint, Publication>,
    private readonly ownRecords: RecordLedger,
  ) {}

  /**
   * The ledger of a window whose own chunk was opened as `window.opened`, reading the items of any
   * other chunk its records name (none, unless the cursor was moved back).
   */
  static async of(
    window: LedgerWindow,
    records: readonly AlertRecord[],
    publications: Publications,
    ownRecords: RecordLedger,
  ): Promise<ChunkLedger> {
    const ledger = new ChunkLedger(window, publications, new Map([[window.from, window.opened]]), ownRecords);
    await ledger.#readOtherChunks(records);
    return ledger;
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

  /**
   * The window's own chunk claimed (a fenced write that returns the item as it stands: a poll that
   * took the lease over may have published meanwhile), the others' items read again, the records
   * without a chunk claimed one by one; then the poll's time checked, just before the Publish.
   */
  async claim(records: readonly AlertRecord[]): Promise<AlertRecord[]> {
    const { account, from, guard } = this.window;
    const own = records.filter((record) => !this.#publicationOf(record));
    const [claimed, ownClaimed] = await Promise.all([
      this.publications.claim(account, from, guard.epoch),
      this.ownRecords.claim(own),
      this.#readOtherChunks(records, from),
    ]);
    this.byChunk.set(from, claimed);
    guard.check("publish");
    return records.filter((record) =>
      this.#publicationOf(record) ? this.owes(record) : ownClaimed.includes(record),
    );
  }

  async published(alerts: readonly PublishedAlert[]): Promise<void> {
    await Promise.all([
      this.ownRecords.published(alerts.filter(({ record }) => !this.#publicationOf(record))),
      this.#add(
        alerts.map(({ record }) => record),
        "published",
        (from, ids) => this.publications.addPublished(this.window.account, from, ids),
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
      this.#add(records, "handedOn", (from, ids) =>
        this.publications.addHandedOn(this.window.account, from, ids, this.window.guard.epoch),
      ),
    ]);
  }

  /** The items of the chunks other than `except` that the records name, read (again) as they stand. */
  async #readOtherChunks(records: readonly AlertRecord[], except = this.window.from): Promise<void> {
    const others = [...new Set(records.map((record) => record.chunkFrom))].filter(
      (from): from is bigint => from !== undefined && from !== except,
    );
    await Promise.all(
      others.map(async (from) => {
        // No item: the chunk's run never got to open it, so nothing of it went out.
        const found = await this.publications.get(this.window.account, from);
        this.byChunk.set(from, found ?? { decidedAtMs: 0, published: new Set(), handedOn: new Set() });
      }),
    );
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
