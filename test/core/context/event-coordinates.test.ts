import { eventCoordinates } from "@fleet-alerts/core/context";
import { describe, expect, it } from "vitest";

describe("eventCoordinates", () => {
  it("reads vehiclex as the longitude and vehicley as the latitude, numbers or decimal strings", () => {
    expect(eventCoordinates({ vehiclex: 13.404954, vehicley: 52.520008 })).toEqual({
      lat: 52.520008,
      lng: 13.404954,
    });
    expect(eventCoordinates({ vehiclex: " -73.9857", vehicley: "40.7484 " })).toEqual({
      lat: 40.7484,
      lng: -73.9857,
    });
  });

  it.each([
    ["null", { vehiclex: null, vehicley: null }],
    ["absent", {}],
    ["empty strings", { vehiclex: "", vehicley: "" }],
    ["one side only", { vehiclex: 13.4, vehicley: null }],
    ["0/0, a receiver without a fix", { vehiclex: 0, vehicley: "0" }],
    ["a latitude beyond 90", { vehiclex: 13.4, vehicley: 95 }],
    ["a longitude beyond 180", { vehiclex: 181, vehicley: 52.5 }],
    ["text", { vehiclex: "13.4E", vehicley: "52.5N" }],
    ["NaN", { vehiclex: Number.NaN, vehicley: 52.5 }],
    ["an object", { vehiclex: { lng: 13.4 }, vehicley: 52.5 }],
  ])("refuses %s", (_, coordinates) => {
    expect(eventCoordinates(coordinates)).toBeUndefined();
  });
});
