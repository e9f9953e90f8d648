import { DeviceCloudClient, type DeviceCloudClientOptions } from "@fleet-alerts/core/devicecloud";
import { type Simulator, type SimulatorOptions, start } from "@fleet-alerts/simulator";

export const DEMO = { username: "demo", password: "demo" } as const;
export const ADMIN = { username: "admin", password: "admin" } as const;

/** A simulator on 127.0.0.1 and a client factory bound to it; fast retries so fault tests stay quick. */
export async function startContract(options: SimulatorOptions = {}) {
  const simulator: Simulator = await start({ seed: 11, devices: 6, ...options });
  const client = (overrides: Partial<DeviceCloudClientOptions> = {}) =>
    new DeviceCloudClient({
      baseUrl: simulator.url,
      credentials: DEMO,
      retry: { baseDelayMs: 1, maxDelayMs: 10 },
      ...overrides,
    });
  return { simulator, control: simulator.control, client };
}
