import { DeviceCloudClient } from "../../devicecloud/client.js";
import { DeviceCloudHttpError } from "../../devicecloud/errors.js";
import type { AccountConnection, DeviceCloudLogin, LoginOutcome } from "../ports.js";

/**
 * The cheapest call the spec offers: the event query for the one serial number 0 (no event has it),
 * with one column. The service has no login of its own: every call carries the credentials, and
 * 401 or 403 is its refusal. No retry: doctor reports what the service says now.
 */
export const deviceCloudLogin: DeviceCloudLogin = {
  async check(connection: AccountConnection, timeoutMs: number): Promise<LoginOutcome> {
    const started = performance.now();
    try {
      const client = new DeviceCloudClient({
        baseUrl: connection.baseUrl,
        credentials: { username: connection.username, password: connection.password },
        timeoutMs,
        retry: { maxAttempts: 1 },
      });
      await client.queryEvents({ serialno: 0, columns: ["serialno"] });
      return { accepted: true, ms: Math.round(performance.now() - started) };
    } catch (error) {
      // The client's errors name the operation and status, never a credential (devicecloud/errors.ts).
      const refused = error instanceof DeviceCloudHttpError && (error.status === 401 || error.status === 403);
      return { accepted: false, refused, reason: error instanceof Error ? error.message : String(error) };
    }
  },
};
