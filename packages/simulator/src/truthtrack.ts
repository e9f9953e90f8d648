/**
 * A vehicle's ground truth: where it really was, how fast and which way, at any instant, so tests
 * can check what a client derives from events, GPS history and status against it.
 *
 * The motion model (motion.ts) sets the speed at each tick, then moves the vehicle in a straight
 * line at that speed and heading over the tick's 5 seconds. So at an instant e in (t - 5 s, t],
 * t a tick, the vehicle is on the line between its positions after the ticks t - 5 s and t, at
 * the share of the tick elapsed, with the speed and heading of tick t (what the GPS point at t
 * shows).
 *
 * A row is the state after a tick, kept only when it differs from the last row: parked and
 * powered-off hours cost nothing, driving costs 40 bytes a tick.
 */
import { FloatColumns } from "./columns.js";
import { TICK_MS } from "./devicetypes.js";

export interface GroundTruth {
  lat: number;
  lng: number;
  speedKmh: number;
  /** Degrees clockwise from north. */
  heading: number;
}

export class TruthTrack {
  private readonly rows = new FloatColumns<"ms" | keyof GroundTruth>([
    "ms",
    "lat",
    "lng",
    "speedKmh",
    "heading",
  ]);

  /** `initial` holds from `sinceMs`, the start of the first tick's interval: history begins there. */
  constructor(sinceMs: number, initial: GroundTruth) {
    this.rows.push([sinceMs, initial.lat, initial.lng, initial.speedKmh, initial.heading]);
  }

  /** The state after the tick at `tickMs`, which must follow the ticks recorded before. */
  record(tickMs: number, state: GroundTruth): void {
    const { rows } = this;
    const last = rows.length - 1;
    if (
      state.lat === rows.value("lat", last) &&
      state.lng === rows.value("lng", last) &&
      state.speedKmh === rows.value("speedKmh", last) &&
      state.heading === rows.value("heading", last)
    )
      return;
    rows.push([tickMs, state.lat, state.lng, state.speedKmh, state.heading]);
  }

  /**
   * The state at `ms`; undefined before history begins. After the last tick recorded it is the
   * state after that tick: the next tick has not been simulated yet.
   */
  at(ms: number): GroundTruth | undefined {
    const { rows } = this;
    if (ms < rows.value("ms", 0)) return undefined;
    const next = rows.lowerBound("ms", ms);
    if (next === rows.length) return this.state(next - 1);
    const tickMs = rows.value("ms", next);
    if (tickMs === ms) return this.state(next);
    // Rows are only kept for ticks that changed something: before the interval of the tick that
    // made row `next`, the vehicle was still in the state of the row before it.
    const before = this.state(next - 1);
    const share = (ms - (tickMs - TICK_MS)) / TICK_MS;
    if (share <= 0) return before;
    const after = this.state(next);
    return {
      lat: before.lat + (after.lat - before.lat) * share,
      lng: before.lng + (after.lng - before.lng) * share,
      speedKmh: after.speedKmh,
      heading: after.heading,
    };
  }

  private state(index: number): GroundTruth {
    const { ms, ...state } = this.rows.row(index);
    return state;
  }
}
