/**
 * A single SMS segment holds 160 characters of the GSM 03.38 alphabet; one character outside it
 * would switch the whole message to UCS-2 and 70 characters per segment. Texts made with `toGsm`
 * and cut to this length go out as exactly one SMS.
 */
export const SMS_SEGMENT_LENGTH = 160;

/**
 * A device's text as people read it, on one line: control characters, line and paragraph
 * separators and runs of white space become one space (a name must not add lines to a message);
 * bidirectional controls are dropped (U+202E would show the rest of the line reversed, making
 * "exe.pdf" of "fdp.exe"), and so are noncharacters (U+FFFE, U+FFFF: no channel is meant to carry
 * them); a lone surrogate, which no UTF-8 channel can carry, becomes U+FFFD.
 */
export function singleLine(text: string): string {
  return text
    .toWellFormed()
    .replace(/[\p{Bidi_Control}\p{Noncharacter_Code_Point}]/gu, "")
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, " ")
    .trim();
}

// Letters that Unicode decomposition does not reduce to ASCII, and common typographic punctuation.
const ASCII_SUBSTITUTES: Record<string, string> = {
  ß: "ss",
  Æ: "AE",
  æ: "ae",
  Œ: "OE",
  œ: "oe",
  Ø: "O",
  ø: "o",
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  Ð: "D",
  ð: "d",
  Þ: "Th",
  þ: "th",
  ı: "i",
  "‘": "'",
  "’": "'",
  "‚": "'",
  "“": '"',
  "”": '"',
  "„": '"',
  "–": "-",
  "—": "-",
  "€": "EUR",
};

/** Printable ASCII on one line: accents dropped ("Zoë" -> "Zoe"), other scripts removed. */
export function toAscii(text: string): string {
  return singleLine(
    text
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .replace(/[^\x20-\x7e]/g, (char) => ASCII_SUBSTITUTES[char] ?? (/\s/.test(char) ? " " : "")),
  );
}

// ASCII characters outside the GSM 03.38 basic set: escaped ones count double, the backtick is absent.
const GSM_SUBSTITUTES: Record<string, string> = {
  "[": "(",
  "]": ")",
  "{": "(",
  "}": ")",
  "\\": "/",
  "|": "/",
  "~": "-",
  "^": "",
  "`": "'",
};

/** ASCII that is also in the GSM 03.38 basic set, so that 160 characters fill exactly one SMS. */
export function toGsm(text: string): string {
  return toAscii(text).replace(/[[\]{}\\|~^`]/g, (char) => GSM_SUBSTITUTES[char] ?? "");
}
