import { fc } from "@fast-check/vitest";
import { deviceIdSchema } from "@fleet-alerts/core/devicecloud";

/**
 * Strings as the device cloud may send them (device ids, vehicle and driver names): it controls
 * them, so every channel gets them from here. Uniform strings almost never hold `<!channel>` or a
 * CR, so the arbitraries below lean towards the classes that break a channel's encoding.
 */

/** Markup and mentions: HTML, Slack's control sequences, Markdown. */
export const MARKUP = [
  "<script>alert(1)</script>",
  "<img src=x onerror=alert(1)>",
  '"',
  "'",
  "&",
  "&amp;",
  "&lt;b&gt;",
  "</h1>",
  "<!--",
  "<!channel>",
  "<!here>",
  "<!everyone>",
  "<@U024BE7LH>",
  "<https://evil.example|click>",
  "<#C123>",
  "[Open](https://evil.example)",
  "![x](https://evil.example/x.png)",
  "**x**",
  "*x*",
  "_x_",
  "~~x~~",
  "- item",
  "1. item",
  "# h",
  "> quote",
  "`code`",
  "\\",
  "https://evil.example",
  "www.evil.example",
  "a@b.example",
  "javascript:alert(1)",
] as const;

/** Characters that act instead of showing: line breaks, controls, escape sequences. */
export const CONTROLS = [
  "\r",
  "\n",
  "\r\n",
  "\u0000",
  "\u001b[31m",
  "\u001b]0;title\u0007",
  "\u0007",
  "\t",
  "\u000b",
  "\u000c",
  "\u007f",
  "\u0085",
  "\u009b",
  "\u2028",
  "\u2029",
] as const;

/** Bidirectional controls: U+202E shows the rest of a line reversed. */
export const BIDI = ["\u202e", "\u202d", "\u2066", "\u2067", "\u2068", "\u2069", "\u200f", "\u061c"] as const;

/** Noncharacters and lone surrogates: no channel is meant to carry them, UTF-8 cannot. */
export const UNCARRIABLE = [
  "\ufffe",
  "\uffff",
  "\ufdd0",
  "\u{1fffe}",
  "\u{1ffff}",
  "\ud800",
  "\udfff",
] as const;

/** Graphemes of several code units: a UTF-16 cut inside one shows as garbage. */
export const GRAPHEMES = [
  "👩‍👩‍👧‍👦",
  "🇩🇪",
  "🚚",
  "👩‍✈️",
  "e\u0301",
  `a${"\u0301".repeat(50)}`,
  "각",
  "\u1100\u1161\u11a8",
  // A prepended mark joins the character after it, even a space.
  "\u0600 ",
] as const;

/** Characters that take no room and show nothing: zero-width, format, Hangul fillers, a variation selector. */
export const INVISIBLES = [
  "\u200b",
  "\u200c",
  "\u2060",
  "\ufeff",
  "\u00ad",
  "\u3164",
  "\u115f",
  "\ufe0f",
] as const;

/** Names that show as nothing. */
export const BLANKS = ["", " ", "   ", "\t\n", "\u00a0", "\u3000", "\r\n", "\u200f", "\u2028"] as const;

const FRAGMENTS = [...MARKUP, ...CONTROLS, ...BIDI, ...UNCARRIABLE, ...GRAPHEMES, ...INVISIBLES];

/** One piece of a hostile string: a known troublemaker, or a few arbitrary characters. */
function fragment(): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...FRAGMENTS), weight: 6 },
    { arbitrary: fc.string({ unit: "binary", maxLength: 6 }), weight: 2 },
    { arbitrary: fc.string({ unit: "grapheme", maxLength: 4 }), weight: 2 },
    { arbitrary: fc.string({ unit: "grapheme-ascii", maxLength: 8 }), weight: 3 },
    { arbitrary: fc.constantFrom("TRK-01", "Ada Lovelace", "0012345678", " ", "."), weight: 2 },
  );
}

export interface UntrustedOptions {
  /** The longest string made (10,000 by default). */
  maxLength?: number;
}

/** A string the device cloud may send, biased towards what breaks a channel's encoding. */
export function untrustedString({ maxLength = 10_000 }: UntrustedOptions = {}): fc.Arbitrary<string> {
  const fitted = (arbitrary: fc.Arbitrary<string>) => arbitrary.map((text) => text.slice(0, maxLength));
  return fc.oneof(
    { arbitrary: fitted(fc.array(fragment(), { maxLength: 8 }).map((parts) => parts.join(""))), weight: 10 },
    { arbitrary: fc.constantFrom(...FRAGMENTS), weight: 3 },
    { arbitrary: fc.constantFrom(...BLANKS), weight: 2 },
    { arbitrary: fitted(fc.string({ unit: "binary", maxLength: 40 })), weight: 2 },
    { arbitrary: fitted(fc.string({ unit: "grapheme", maxLength: 20 })), weight: 2 },
    {
      // Very long: a fragment repeated, up to `maxLength`.
      arbitrary: fc
        .tuple(fragment(), fc.integer({ min: 1, max: maxLength }))
        .map(([part, length]) =>
          (part === "" ? "x" : part).repeat(Math.ceil(length / Math.max(1, part.length))),
        )
        .map((text) => text.slice(0, maxLength)),
      weight: 1,
    },
  );
}

/** Strings that show as nothing: blanks, line breaks, controls, bidi controls, noncharacters. */
export function blankString(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...BLANKS),
    fc
      .array(
        fc.constantFrom(
          ...[...CONTROLS, ...BIDI, ...UNCARRIABLE].filter(
            (text) => !/[\p{L}\p{N}\p{P}\p{S}\p{Cs}]/u.test(text),
          ),
          " ",
          "\u00a0",
          "\u3000",
        ),
        { maxLength: 12 },
      )
      .map((parts) => parts.join("")),
  );
}

/** Strings of invisible characters only, some among blanks. */
export function invisibleString(): fc.Arbitrary<string> {
  return fc
    .array(fc.constantFrom(...INVISIBLES, " "), { minLength: 1, maxLength: 8 })
    .map((parts) => parts.join(""))
    .filter((text) => text.trim() !== "");
}

/** Ids that are paths, or spell one once decoded. */
export const PATH_LIKE_IDS = [".", "..", "../x", "a/b", "%2e%2e", "%2E%2E", "~", "...", "./", "/"] as const;

/** A device id the schema takes (1 to 128 characters, no control character), biased like `untrustedString`. */
export function deviceIdArbitrary(): fc.Arbitrary<string> {
  return fc
    .oneof(
      {
        arbitrary: untrustedString({ maxLength: 400 }).map((text) =>
          text.replace(/\p{Cc}/gu, "").slice(0, 128),
        ),
        weight: 10,
      },
      { arbitrary: fc.constantFrom(...PATH_LIKE_IDS), weight: 2 },
      { arbitrary: fc.constantFrom(" ", "   ", "\u2028", "\u202e", "\uffff", "\ud800"), weight: 1 },
    )
    .filter((id) => deviceIdSchema.safeParse(id).success);
}

/** What acts instead of showing: controls, line and paragraph separators, bidi controls, noncharacters. */
export const ACTS_NOT_SHOWS = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}\p{Noncharacter_Code_Point}]/u;

/** A character a reader sees: not blank, a control, a separator, a default-ignorable or a noncharacter. */
export const VISIBLE = /[^\s\p{Cc}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]/u;

/** Every line break a reader may honour: Unicode's mandatory breaks (LF, CR, CRLF, VT, FF, NEL, LS, PS). */
export const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/;

/** The lines of a text as any reader may split it. */
export function linesOf(text: string): string[] {
  return text.split(new RegExp(LINE_BREAK.source, "g"));
}

const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" });

/** The grapheme clusters of a text, as `Intl.Segmenter` finds them. */
export function graphemesOf(text: string): string[] {
  return Array.from(segmenter.segment(text), ({ segment }) => segment);
}

/** True when `part` is the first k grapheme clusters of `text`, for some k (a cut between graphemes). */
export function isGraphemePrefix(part: string, text: string): boolean {
  let joined = "";
  for (const grapheme of graphemesOf(text)) {
    if (joined === part) return true;
    if (joined.length >= part.length) return false;
    joined += grapheme;
  }
  return joined === part;
}

/** The HTML elements of a page, in order (`p`, `/p`, …): what data must not add to. */
export function tagsOf(html: string): string[] {
  return Array.from(
    html.matchAll(/<(\/?)([A-Za-z][A-Za-z0-9-]*)[^>]*>/g),
    ([, slash, name]) => `${slash}${name}`,
  );
}

/** What the device cloud calls a device, its vehicle and its driver. */
export interface DeviceNames {
  vehicleid: string;
  drivername: string;
  deviceid: string;
}

/** Names of every kind for one device, its id one the device-id schema takes. */
export function deviceNames(): fc.Arbitrary<DeviceNames> {
  return fc.record({
    vehicleid: untrustedString(),
    drivername: untrustedString(),
    deviceid: deviceIdArbitrary(),
  });
}
