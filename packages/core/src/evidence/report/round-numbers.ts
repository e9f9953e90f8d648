// Scale bars and axis ticks read best in steps of 1, 2 or 5 times a power of ten.
const MANTISSAS = [1, 2, 5] as const;

function roundNumbersAround(value: number): number[] {
  const power = 10 ** Math.floor(Math.log10(value));
  return [power / 10, ...MANTISSAS.map((mantissa) => mantissa * power), 10 * power];
}

/** The largest of 1, 2, 5 × 10ⁿ that is not above `value` (> 0): a scale bar that fits. */
export function roundNumberAtMost(value: number): number {
  return roundNumbersAround(value).findLast((round) => round <= value) ?? value;
}

/** The smallest of 1, 2, 5 × 10ⁿ that is not below `value` (> 0): a tick step that leaves no more ticks than wanted. */
export function roundNumberAtLeast(value: number): number {
  return roundNumbersAround(value).find((round) => round >= value) ?? value;
}
