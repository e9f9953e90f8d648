/**
 * Text for the operator's terminal. The device cloud's texts reach the live view (device ids,
 * vehicle and driver names, the SMS made of them), and a terminal acts on some characters instead of
 * showing them: ESC starts an escape sequence (colours, cursor moves, a new window title), CR goes
 * back to the start of the line (a name could overwrite what went before it), BEL rings, a line
 * separator or a bidirectional control makes the line say something else. Each such character is
 * shown as its escape (`\x1b`, `\u202e`) instead: visible, and on the line it came with.
 */
const ACTS_IN_A_TERMINAL = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}\p{Noncharacter_Code_Point}\p{Cs}]/gu;

export function terminalText(text: string): string {
  return text.replace(ACTS_IN_A_TERMINAL, visibleEscape);
}

/**
 * A template tag for the live view's lines: the literal parts (ours, line breaks included) as
 * written, every interpolated value through `terminalText`.
 */
export function shown(literals: TemplateStringsArray, ...values: unknown[]): string {
  return values.reduce<string>(
    (line, value, index) => `${line}${terminalText(String(value))}${literals[index + 1]}`,
    literals[0] as string,
  );
}

/** A character as the escape that names it: `\x1b`, `\u202e`, `\u{1fffe}`. */
export function visibleEscape(char: string): string {
  const code = char.codePointAt(0) as number;
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, "0")}`;
  if (code <= 0xffff) return `\\u${code.toString(16).padStart(4, "0")}`;
  return `\\u{${code.toString(16)}}`;
}
