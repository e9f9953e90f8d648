/** `value` to `decimals` places; printed by JSON with no more digits than that. */
export function roundTo(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale;
}
