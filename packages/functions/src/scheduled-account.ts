import * as z from "zod";
import { perAccount, withSecrets } from "./secrets.js";

/** What a per-account schedule sends (infra/polling.ts, infra/recorder-audit.ts); none (a manual run): every account. */
export const scheduledAccountEventSchema = z.object({ account: z.string().min(1).optional() }).loose();

// Not an account id (core's accountConfigSchema allows no '*'): the runtime of every account.
const EVERY_ACCOUNT = "*";

/**
 * A scheduled function's runtimes, one per container and account, each reading only its account's
 * secrets (all of them for a run that names none): `runtimeFor(event.account)`.
 */
export function scheduledRuntimes<T>(
  env: Readonly<Record<string, string | undefined>>,
  build: (resolved: Readonly<Record<string, string | undefined>>) => Promise<T>,
): (account: string | undefined) => Promise<T> {
  const runtimeFor = perAccount((key) =>
    withSecrets(env, key === EVERY_ACCOUNT ? undefined : [key]).then(build),
  );
  return (account) => runtimeFor(account ?? EVERY_ACCOUNT);
}
