/**
 * Rows of numbers kept as one growable Float64Array per column: a long simulation records
 * millions of rows (GPS history, ground truth), and 8 bytes a value is far less than an object a row.
 */
export class FloatColumns<Name extends string> {
  private count = 0;
  private capacity = 1024;
  private columns: Float64Array[];
  private readonly columnOf: Readonly<Record<Name, number>>;

  constructor(private readonly names: readonly Name[]) {
    this.columns = names.map(() => new Float64Array(this.capacity));
    this.columnOf = Object.fromEntries(names.map((name, column) => [name, column])) as Record<Name, number>;
  }

  get length(): number {
    return this.count;
  }

  /** Appends a row: one value per column, in the order of the names (positional: this runs every tick). */
  push(values: readonly number[]): void {
    if (this.count === this.capacity) this.grow();
    const { columns, count } = this;
    for (let column = 0; column < columns.length; column++) {
      (columns[column] as Float64Array)[count] = values[column] as number;
    }
    this.count++;
  }

  value(name: Name, index: number): number {
    return (this.columns[this.columnOf[name]] as Float64Array)[index] as number;
  }

  row(index: number): Record<Name, number> {
    return Object.fromEntries(this.names.map((name) => [name, this.value(name, index)])) as Record<
      Name,
      number
    >;
  }

  /** The first index whose `name` is >= `target`, for a column that never decreases (binary search). */
  lowerBound(name: Name, target: number): number {
    const column = this.columns[this.columnOf[name]] as Float64Array;
    let low = 0;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((column[middle] as number) < target) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  private grow(): void {
    this.capacity *= 2;
    this.columns = this.columns.map((column) => {
      const grown = new Float64Array(this.capacity);
      grown.set(column);
      return grown;
    });
  }
}
