import type { StructuredLogger } from "@fleet-alerts/core";

/** Errors the handlers log are the problems the views list; the rest they observe. */
export function problemLogger(problem: (message: string) => void): StructuredLogger {
  return {
    info: () => undefined,
    warn: () => undefined,
    error: (message, attributes) => {
      const detail = attributes.error ?? attributes.reason;
      problem(detail === undefined ? message : `${message}: ${String(detail)}`);
    },
  };
}
