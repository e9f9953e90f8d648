/**
 * The seeded device and evidence job the benchmarks store evidence from (the evidence section, and the
 * incident page's one alert), so that they cannot drift apart.
 */
import { type SimEvent, start } from "@fleet-alerts/simulator";

/**
 * The benchmark's one device (the same seed always gives the same device and track), recording
 * from 20 minutes before `eventtime` to 20 after, with an event injected at `eventtime`.
 */
export async function benchDevice(clockStart: Date, eventtime: Date, bitrateBitsPerSecond: number) {
  const simulator = await start({
    seed: 5,
    devices: 1,
    historyHours: 2,
    clock: { start: clockStart },
    bitrateBitsPerSecond,
  });
  const deviceid = simulator.control.devices()[0]?.deviceid as string;
  simulator.control.setRecording(
    deviceid,
    new Date(eventtime.getTime() - 20 * 60_000),
    new Date(eventtime.getTime() + 20 * 60_000),
    1,
  );
  const event = simulator.control.injectEvent({ appdevid: 16, deviceid, eventtime });
  return { simulator, deviceid, event };
}

/** An evidence job of one channel around a simulated event, `halfSeconds` either side. */
export function jobOf(event: SimEvent, halfSeconds: number) {
  return {
    version: 1,
    alertId: `north:${event.serialno}:shock`,
    account: "north",
    ruleId: "shock",
    deviceid: event.deviceid,
    serialno: event.serialno.toString(),
    eventtime: event.eventtime,
    channels: [1],
    secondsBefore: halfSeconds,
    secondsAfter: halfSeconds,
    severity: "critical",
    event: { ...event, serialno: event.serialno.toString() },
  };
}
