/** `items` cut into consecutive runs of `size` (the last one shorter): chunks of work, API batches. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/**
 * `items` cut into consecutive batches of at most `size` items whose `bytes` add up to at most
 * `maxBytes` (an API's payload limit): one large item cannot make the service refuse a whole batch.
 * An item over `maxBytes` alone gets a batch of its own; callers refuse those before.
 */
export function chunkedByBytes<T extends { bytes: number }>(
  items: readonly T[],
  size: number,
  maxBytes: number,
): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    if (current.length === size || (current.length > 0 && bytes + item.bytes > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += item.bytes;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
