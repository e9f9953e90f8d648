/** "1 repeat", "3 repeats" */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** "1", "1 and 2", "1, 2 and 3" */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`;
}

/** An empty text as undefined, so that `??` can supply a fallback. */
export function nonEmpty(text: string): string | undefined {
  return text === "" ? undefined : text;
}
