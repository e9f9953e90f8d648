import { fc, test } from "@fast-check/vitest";
import { deviceIdSchema } from "@fleet-alerts/core/devicecloud";
import {
  DISPLAY_TEXT_MAX,
  deviceShown,
  displayName,
  displayText,
  graphemePrefix,
  shorten,
  vehicleOrDevice,
} from "@fleet-alerts/core/text";
import { describe, expect, it } from "vitest";
import {
  ACTS_NOT_SHOWS,
  blankString,
  deviceIdArbitrary,
  GRAPHEMES,
  graphemesOf,
  invisibleString,
  isGraphemePrefix,
  untrustedString,
  VISIBLE,
} from "../../support/untrusted-strings.js";

/** A text for people: nothing that acts instead of showing, no lone surrogate, one line, trimmed. */
function expectShowable(text: string) {
  expect(text).not.toMatch(ACTS_NOT_SHOWS);
  expect(text.isWellFormed()).toBe(true);
  expect(text.trim()).toBe(text);
}

/** Device ids the schema takes that show as nothing: blanks, separators, bidi controls, noncharacters. */
const blankDeviceId = blankString().filter((id) => deviceIdSchema.safeParse(id).success);

describe("displayText", () => {
  test.prop([untrustedString()], { numRuns: 1000 })(
    "is one line of at most 200 characters with nothing that acts instead of showing",
    (text) => {
      const shown = displayText(text);
      expectShowable(shown);
      expect(shown.length).toBeLessThanOrEqual(DISPLAY_TEXT_MAX);
    },
  );

  test.prop([untrustedString()], { numRuns: 1000 })("changes nothing in a text it made", (text) => {
    const shown = displayText(text);
    expect(displayText(shown)).toBe(shown);
  });

  test.prop([untrustedString()], { numRuns: 1000 })(
    "shows nothing exactly when the text holds nothing to see",
    (text) => {
      expect(displayName(text) === undefined).toBe(!VISIBLE.test(text));
    },
  );
});

/** Texts dense in graphemes of several code units, where a cut most often lands inside one. */
const graphemeDense = fc
  .array(fc.oneof(fc.constantFrom(...GRAPHEMES), fc.constantFrom(" ", "x", "\u200d", "\u0301")), {
    maxLength: 12,
  })
  .map((parts) => parts.join(""));

/** Grapheme-dense texts just longer than displayText keeps. */
const graphemeDenseAround200 = fc
  .tuple(
    graphemeDense.filter((text) => text.length > 0),
    fc.integer({ min: 190, max: 260 }),
  )
  .map(([text, length]) => text.repeat(Math.ceil(length / text.length)).slice(0, length));

/** A text and a length to cut it to: anywhere inside it, or just past its end. */
const textAndCut = fc
  .tuple(fc.oneof(untrustedString(), graphemeDense), fc.nat({ max: 20_000 }))
  .map(([text, at]): [string, number] => [text, at % (text.length + 2)]);

describe("cutting between graphemes", () => {
  test.prop([textAndCut], { numRuns: 1000 })(
    "graphemePrefix is the longest run of whole graphemes that fits",
    ([text, max]) => {
      const prefix = graphemePrefix(text, max);
      expect(prefix.length).toBeLessThanOrEqual(max);
      expect(isGraphemePrefix(prefix, text)).toBe(true);
      if (prefix !== text) {
        const next = graphemesOf(text.slice(prefix.length))[0] ?? "";
        expect(prefix.length + next.length).toBeGreaterThan(max);
      }
    },
  );

  test.prop([textAndCut], { numRuns: 1000 })(
    "shorten fits the length and cuts between graphemes, showing the cut with its ellipsis",
    ([text, max]) => {
      const short = shorten(text, max, "…");
      expect(short.length).toBeLessThanOrEqual(max);
      if (text.length <= max) expect(short).toBe(text);
      else {
        const kept = max > 1 ? short.slice(0, -1) : short;
        if (max > 1) expect(short.endsWith("…")).toBe(true);
        expect(isGraphemePrefix(kept, text)).toBe(true);
      }
    },
  );

  test.prop([fc.oneof(untrustedString(), graphemeDenseAround200)], { numRuns: 1000 })(
    "displayText cuts its one line between graphemes",
    (text) => {
      const shown = displayText(text);
      const kept = shown.endsWith("…") ? shown.slice(0, -1) : shown;
      const line = displayText(text, Number.POSITIVE_INFINITY);
      expect(isGraphemePrefix(kept, line)).toBe(true);
    },
  );

  it("keeps flags and families whole", () => {
    expect(displayText("🇩🇪".repeat(150))).toBe(`${"🇩🇪".repeat(49)}…`);
    expect(graphemePrefix("👩‍👩‍👧‍👦x", 10)).toBe("");
    expect(shorten(`a${"\u0301".repeat(50)}bc`, 10, "…")).toBe("…");
  });

  it("keeps a prepended mark with the space it joins", () => {
    // U+0600 and the space after it are one grapheme: the ellipsis goes before both or after both.
    const text = "\u0600 xy";
    expect(isGraphemePrefix(shorten(text, 3, "…").slice(0, -1), text)).toBe(true);
  });
});

describe("naming the vehicle or its device", () => {
  test.prop([fc.option(blankString(), { nil: undefined }), fc.oneof(deviceIdArbitrary(), blankDeviceId)], {
    numRuns: 1000,
  })("falls back to the device id, shown even when blank, on one line", (vehicle, deviceid) => {
    const named = vehicleOrDevice(vehicle, deviceid);
    expect(named).toMatch(VISIBLE);
    expectShowable(named);
    const shown = displayName(deviceid);
    if (shown !== undefined) expect(named).toBe(shown);
  });

  test.prop([untrustedString(), deviceIdArbitrary()], { numRuns: 1000 })(
    "names the vehicle or the device with something to see, on one line",
    (vehicle, deviceid) => {
      const named = vehicleOrDevice(vehicle, deviceid);
      expect(named).toMatch(VISIBLE);
      expectShowable(named);
    },
  );

  test.prop([invisibleString()], { numRuns: 1000 })(
    "takes a name of invisible characters (zero-width, fillers) for no name, and names the device",
    (vehicle) => {
      expect(vehicleOrDevice(vehicle, "0012345678")).toBe("0012345678");
    },
  );

  it("names the device when the vehicle is called a zero-width space", () => {
    expect(vehicleOrDevice("\u200b", "0012345678")).toBe("0012345678");
  });

  it.each([
    ["a line separator", "\u2028"],
    ["a right-to-left override", "\u202e"],
    ["a noncharacter", "\uffff"],
  ])("shows a device id of %s visibly, on one line", (_, deviceid) => {
    expectShowable(deviceShown(deviceid));
  });

  test.prop([fc.oneof(deviceIdArbitrary(), blankDeviceId)], { numRuns: 1000 })(
    "shows every device id as something to see, on one line",
    (deviceid) => {
      const shown = deviceShown(deviceid);
      expect(shown).toMatch(VISIBLE);
      expectShowable(shown);
    },
  );
});
