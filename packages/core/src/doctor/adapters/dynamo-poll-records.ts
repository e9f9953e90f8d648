import { CursorStore } from "../../cursor/cursor-store.js";
import { getItem, type TableRef } from "../../store/dynamo.js";
import { keys } from "../../store/keys.js";
import type { PollRecord, PollRecords } from "../ports.js";

/** An account's cursor, and its lock item's `caughtUpAtMs` (cursor/account-lock.ts), from the stage's table. */
export class DynamoPollRecords implements PollRecords {
  constructor(private readonly table: TableRef) {}

  async read(account: string): Promise<PollRecord> {
    const [cursor, lock] = await Promise.all([
      new CursorStore(this.table).readItem(account),
      getItem(this.table, keys.account(account), keys.lock),
    ]);
    return {
      ...(typeof lock?.caughtUpAtMs === "number" && { caughtUpAtMs: lock.caughtUpAtMs }),
      ...(cursor && {
        cursor: {
          serialno: cursor.serialno,
          ...(cursor.updatedAt !== undefined && { movedAtMs: Date.parse(cursor.updatedAt) }),
        },
      }),
    };
  }
}
