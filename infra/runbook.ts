/**
 * The end of every alarm's description: where its runbook section is. The person paged reads the
 * alarm in an email or the console, far from this repository, so the link names the guide and the
 * heading (test/infra/alarm-runbooks.test.ts checks each anchor against docs/operate.md's headings).
 */
export const runbook = (anchor: string) => ` Runbook: docs/operate.md#${anchor}`;
