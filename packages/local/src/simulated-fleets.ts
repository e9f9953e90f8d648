/**
 * The local mode's simulated fleets: one simulator per account, each with its own devices, events
 * and credentials, all on one clock (the handlers live by the first fleet's).
 */
import { randomBytes } from "node:crypto";
import {
  type DeviceIdentity,
  type EventCoordinates,
  type Simulator,
  start as startSimulator,
} from "@fleet-alerts/simulator";

export interface FleetOptions {
  /** Devices per fleet. */
  devices: number;
  /** The first fleet's seed; each next fleet's is one more (another fleet, other events). */
  seed: number;
  clock: { start: Date; speed: number };
  eventCoordinates?: EventCoordinates;
  /** What the first fleet calls its first devices. */
  identities?: DeviceIdentity[];
}

export interface SimulatedAccount {
  id: string;
  baseUrl: string;
  username: string;
  password: string;
}

/** One simulator per account id, in order. */
export async function startSimulatedFleets(ids: readonly string[], options: FleetOptions) {
  const simulators = new Map<string, Simulator>();
  const accounts: SimulatedAccount[] = [];
  for (const [index, id] of ids.entries()) {
    const password = randomBytes(12).toString("base64url");
    const simulator = await startSimulator({
      seed: options.seed + index,
      devices: options.devices,
      // Serial numbers a million apart: which fleet an event came from shows in its number.
      serialStart: 1_000_000n * BigInt(index + 1),
      // Each account its own credentials, as separate customers' accounts have.
      accounts: [{ username: id, password, admin: false }],
      historyHours: 1,
      clock: options.clock,
      ...(options.eventCoordinates && { eventCoordinates: options.eventCoordinates }),
      ...(index === 0 && options.identities && { identities: options.identities }),
      // Small clips: a minute of video is about 1 MB.
      bitrateBitsPerSecond: 128_000,
    });
    simulators.set(id, simulator);
    accounts.push({ id, baseUrl: simulator.url, username: id, password });
  }
  return { simulators, accounts };
}
