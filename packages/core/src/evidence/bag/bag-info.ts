/*
 * Tag files of labels (RFC 8493 §2.2.2): bagit.txt and bag-info.txt, each line `Label: value`; a
 * line that starts with a space or a tab continues the value above it.
 */

export interface TagLabel {
  label: string;
  value: string;
}

export interface ParsedLabels {
  labels: TagLabel[];
  /** Lines that could not be read, each said in words with its number. */
  problems: string[];
}

const LABEL_LINE = /^([^\s:][^:]*):[ \t](.*)$/;

export function parseLabels(text: string): ParsedLabels {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.at(-1) === "") lines.pop();
  const labels: TagLabel[] = [];
  const problems: string[] = [];
  lines.forEach((content, index) => {
    const previous = labels.at(-1);
    if (/^[ \t]/.test(content) && previous) {
      previous.value += ` ${content.trim()}`;
      return;
    }
    const match = LABEL_LINE.exec(content);
    if (!match) {
      problems.push(`line ${index + 1} is not "Label: value"`);
      return;
    }
    const [, label = "", value = ""] = match;
    labels.push({ label, value });
  });
  return { labels, problems };
}

/** Every value of a label; labels compare without regard to case, as RFC 8493 §2.2.2 has it. */
export function labelValues(labels: readonly TagLabel[], label: string): string[] {
  const wanted = label.toLowerCase();
  return labels.filter((candidate) => candidate.label.toLowerCase() === wanted).map(({ value }) => value);
}

/** Payload-Oxum: the payload's total size in octets and its number of files. */
export interface PayloadOxum {
  octets: number;
  files: number;
}

/** `<octets>.<files>`; undefined when the value is not that. */
export function parsePayloadOxum(value: string): PayloadOxum | undefined {
  const match = /^(\d+)\.(\d+)$/.exec(value.trim());
  if (!match) return undefined;
  const octets = Number(match[1]);
  const files = Number(match[2]);
  if (!Number.isSafeInteger(octets) || !Number.isSafeInteger(files)) return undefined;
  return { octets, files };
}
