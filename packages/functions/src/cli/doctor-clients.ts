import type { DoctorPorts, DoctorTarget } from "@fleet-alerts/core/doctor";

/** A stage as doctor checks it: what to look at, the ports to look with, and what lets their clients go. */
export interface DoctorStage {
  target: DoctorTarget;
  ports: DoctorPorts;
  close(): void;
}

/**
 * Every AWS call of doctor within `timeoutMs`, and retried once: the SDK's own default waits for
 * ever on a connection that never answers. (runDoctor ends a check that outlasts twice the limit
 * anyway; this lets the call itself go.)
 */
export function callLimits(timeoutMs: number) {
  return { maxAttempts: 2, requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs } };
}
