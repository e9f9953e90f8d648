import type { AlertRouter, Route } from "@fleet-alerts/core/routing";

/** The recipient every alert of a FakeRouter goes to. */
export const FAKE_RECIPIENT = "e-0000000000000000";

/** The route of every alert of a FakeRouter. */
export const FAKE_ROUTE: Route = {
  groups: ["everyone"],
  held: [],
  email: [FAKE_RECIPIENT],
  sms: [],
  smsCapped: [],
  targets: [],
};

/** A router for decision tests: every alert to one group and one email recipient, nothing held. */
export class FakeRouter implements AlertRouter {
  readonly routed: string[] = [];

  async route(alert: { alertId: string }): Promise<Route> {
    this.routed.push(alert.alertId);
    return structuredClone(FAKE_ROUTE);
  }
}
