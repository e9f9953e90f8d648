/**
 * Rows of numbers kept as one growable Float64Array per column: a long simulation records
 * millions of rows (GPS history, ground truth), and 8 bytes a value is far less than an object a row.
 */
export class FloatColumns<Name extends string> {
  private count = 0;
  private capacity = 1024;
  private readonly arrays: Record<Name, Float64Array>;

  constructor(private readonly names: readonly Name[]) {
    this.arrays = Object.fromEntries(names.map((name) => [name, new Float64Array(this.capacity)])) as Record<
      Name,
      Float64Array
    >;
  }

  get length(): number {
    return this.count;
  }

  push(row: Readonly<Record<Name, number>>): void {
    if (this.count === this.capacity) this.grow();
    for (const name of this.names) this.arrays[name][this.count] = row[name];
    this.count++;
  }

  value(name: Name, index: number): number {
    return this.arrays[name][index] as number;
  }

  row(index: number): Record<Name, number> {
    return Object.fromEntries(this.names.map((name) => [name, this.value(name, index)])) as Record<
      Name,
      number
    >;
  }

  /** The first index whose `name` is >= `target`, for a column that never decreases (binary search). */
  lowerBound(name: Name, target: number): number {
    const array = this.arrays[name];
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((array[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private grow(): void {
    this.capacity *= 2;
    for (const name of this.names) {
      const grown = new Float64Array(this.capacity);
      grown.set(this.arrays[name]);
      this.arrays[name] = grown;
    }
  }
}
