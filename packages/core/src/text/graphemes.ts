/**
 * Cutting text where a reader sees a boundary. A UTF-16 cut may split a surrogate pair (half an
 * emoji, which no UTF-8 channel can carry) or a grapheme (a flag into two letters, a family into
 * its members, a letter from its accent): texts are cut between grapheme clusters only.
 */
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });

/**
 * The longest prefix of `text` made of whole grapheme clusters whose length (in UTF-16 code units,
 * the unit of every limit the channels state) is at most `max`. A cluster longer than `max` on its
 * own (a letter under a thousand combining marks) is left out whole.
 */
export function graphemePrefix(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (index + segment.length > max) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}

/** The grapheme clusters of `text`, in order. */
export function* graphemeSegments(text: string): Generator<string> {
  for (const { segment } of graphemes.segment(text)) yield segment;
}
