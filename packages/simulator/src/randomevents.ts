/**
 * The events that happen at seeded random rates per hour, one rate while driving and another
 * while parked: at most one of them per tick.
 */

import type { DeviceContext } from "./devicetypes.js";
import { TICK_MS } from "./devicetypes.js";
import type { EventDetails } from "./eventlog.js";
import { EventCode } from "./events.js";
import { roundTo } from "./numbers.js";
import type { Recorder } from "./recorder.js";
import { RecordingKind } from "./recordings.js";
import { HOUR_MS, MINUTE_MS, SECOND_MS } from "./time.js";

interface RandomEventRate {
  drivingPerHour: number;
  parkedPerHour: number;
  fire(ms: number): void;
}

export class RandomEvents {
  private readonly rates: readonly RandomEventRate[];

  constructor(
    private readonly device: DeviceContext,
    private readonly recorder: Recorder,
    dropConnection: (ms: number) => void,
  ) {
    this.rates = this.eventRates(dropConnection);
  }

  /** One draw a tick picks at most one event, each with its share of the tick's probability. */
  maybeFire(ms: number, driving: boolean): void {
    let draw = this.device.rng.next();
    for (const rate of this.rates) {
      draw -= ((driving ? rate.drivingPerHour : rate.parkedPerHour) * TICK_MS) / HOUR_MS;
      if (draw < 0) {
        rate.fire(ms);
        return;
      }
    }
  }

  private eventRates(dropConnection: (ms: number) => void): RandomEventRate[] {
    const { profile, rng } = this.device;
    const send = this.device.send.bind(this.device);
    const rate = (drivingPerHour: number, parkedPerHour: number, fire: (ms: number) => void) => ({
      drivingPerHour,
      parkedPerHour,
      fire,
    });
    const diskErrorRate = profile.flakyDisk ? 0.6 : 0.03;
    return [
      rate(1.5, 0.1, (ms) => this.gsensor(ms)),
      rate(1.0, 0.3, (ms) => send(EventCode.Gpio1, ms, { type: rng.int(0, 1) })),
      rate(0.4, 0.2, (ms) => send(EventCode.Gpio2, ms, { type: rng.int(0, 1) })),
      rate(0.3, 0.1, (ms) => send(EventCode.Gpio3, ms, { type: rng.int(0, 1) })),
      rate(0.25, 0.15, (ms) => this.panicButton(ms)),
      rate(0.6, 0.6, (ms) => send(EventCode.SdBackupNormal, ms, { downloadtype: 2, loopdata: "" })),
      rate(0.2, 0.2, (ms) => this.recorder.videoLoss(ms, rng.int(1, profile.channels))),
      rate(0.1, 0.1, (ms) => send(EventCode.LostRecordCover, ms, {})),
      rate(diskErrorRate, diskErrorRate, (ms) => this.recorder.failDisk(ms)),
      rate(0.08, 0.08, (ms) => this.recorder.reboot(ms)),
      rate(0.3, 0.3, (ms) => send(EventCode.UnlistedDiagnostic, ms, { type: rng.int(0, 5), loopdata: "" })),
      rate(0.15, 0.15, (ms) =>
        send(EventCode.UnlistedDriverCard, ms, { type: 1, memo: profile.drivername || "unknown card" }),
      ),
      rate(0.15, 0.15, (ms) => this.geofence(ms)),
      rate(0.3, 0.2, dropConnection),
    ];
  }

  private gsensor(ms: number): void {
    const { rng } = this.device;
    const details = { type: rng.int(1, 3), ...this.videoEventDetails(ms) };
    this.device.send(EventCode.GSensor, ms, this.device.located(details));
    this.recorder.startAlert(ms, RecordingKind.GsensorAlert);
    if (rng.chance(0.7)) {
      this.device.schedule(ms + rng.int(2, 5) * MINUTE_MS, (at) =>
        this.device.send(EventCode.SdBackupGsensor, at, { downloadtype: 2, loopdata: "" }),
      );
    }
  }

  private panicButton(ms: number): void {
    this.device.send(EventCode.TriggerIn, ms, this.device.located(this.videoEventDetails(ms)));
    this.recorder.startAlert(ms, RecordingKind.ButtonAlert);
    this.device.schedule(ms + this.device.rng.int(1, 3) * MINUTE_MS, (at) =>
      this.device.send(EventCode.TriggerOut, at, {}),
    );
  }

  private geofence(ms: number): void {
    const { profile, rng } = this.device;
    const fenceid = rng.int(1, 12);
    const details = {
      type: rng.int(0, 1),
      fenceid,
      fencename: `Depot ${fenceid}`,
      radius: rng.pick([200, 500, 1000, 2000]),
      centerx: roundTo(profile.home.lng + rng.between(-0.05, 0.05), 6),
      centery: roundTo(profile.home.lat + rng.between(-0.05, 0.05), 6),
      checkstatus: rng.int(0, 1),
    };
    this.device.send(EventCode.UnlistedGeofence, ms, this.device.located(details));
  }

  /** Events that come with a loop-recording clip the service can download. */
  private videoEventDetails(ms: number): Partial<EventDetails> {
    const { profile, rng } = this.device;
    const downloaded = rng.chance(0.5);
    const channels = Array.from({ length: profile.channels }, (_, i) => i + 1).join(",");
    return {
      downloadtype: 1,
      download: downloaded ? 1 : 0,
      try: downloaded ? rng.int(1, 3) : rng.int(0, 2),
      loopdata: JSON.stringify({ ch: channels, start: Math.floor(ms / SECOND_MS) - 10, pre: 10, post: 20 }),
    };
  }
}
