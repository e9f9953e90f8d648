/** The peak resident memory of this process alone, in bytes (peak-rss.mjs). */
export function peakRssBytes(): Promise<number>;
