import {
  buildAlertMessage,
  gatherFacts,
  renderAttributes,
  renderEmail,
  renderJson,
  renderSms,
  renderSubject,
} from "@fleet-alerts/core/alerts";
import { describe, expect, it } from "vitest";
import { context, eventAt, fleetDevice } from "./fixtures.js";

describe("alert message", () => {
  it("renders every channel from the same facts", () => {
    const facts = gatherFacts(context({ suppressedBefore: 3 }));
    expect(buildAlertMessage(context({ suppressedBefore: 3 }))).toEqual({
      subject: renderSubject(facts),
      email: renderEmail(facts),
      sms: renderSms(facts),
      default: renderJson(facts),
      attributes: renderAttributes(facts),
    });
  });

  it("refuses an unknown time zone with an error naming it", () => {
    expect(() => buildAlertMessage(context({ fleetTimeZone: "Europe/Berln" }))).toThrow(
      new RangeError('fleet time zone "Europe/Berln" is not an IANA time zone (such as "Europe/Berlin")'),
    );
    expect(() => buildAlertMessage(context({ fleetTimeZone: "" }))).toThrow(RangeError);
  });

  it("copies no unlisted field of the event or the device into any body or attribute", () => {
    const leaky = "s3cr3t-value-that-must-not-appear";
    const message = buildAlertMessage(
      context({
        event: eventAt("2026-03-29T01:30:00Z", { memo: leaky, loopdata: leaky, password: leaky }),
        device: fleetDevice({ nmea: leaky, token: leaky }),
      }),
    );
    expect(JSON.stringify(message)).not.toContain(leaky);
  });
});
