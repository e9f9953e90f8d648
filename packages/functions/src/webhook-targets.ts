import { readFile } from "node:fs/promises";
import { groupsFileSchema, type Target } from "@fleet-alerts/core/routing";
import {
  parseTargetUrl,
  type ResolvedTarget,
  targetEnvName,
  webhookSecretSchema,
} from "@fleet-alerts/core/webhooks";
import { readSstSecrets } from "./secrets.js";

type Env = Readonly<Record<string, string | undefined>>;

/** The targets of the groups file (kind, includeDriverName): the file's other parts are the poller's. */
export async function loadTargets(groupsFile: string): Promise<Record<string, Target>> {
  const parsed = groupsFileSchema.safeParse(JSON.parse(await readFile(groupsFile, "utf8")));
  if (!parsed.success)
    throw new Error(`groups file ${groupsFile} is invalid: ${parsed.error.issues[0]?.message}`);
  return parsed.data.targets;
}

/** The SST secret names of a target's URL and signing secret. */
export function targetSecretNames(targetId: string): { url: string; secret: string } {
  const name = targetEnvName(targetId);
  return { url: `TARGET_${name}_URL`, secret: `TARGET_${name}_SECRET` };
}

export type SecretReader = (env: Env, names: readonly string[]) => Promise<Record<string, string>>;

/**
 * Resolves targets by name, each once per container (a failure is forgotten, so that a secret set
 * later is read on the next job): its URL and `whsec_` secret from the environment first (the local
 * mode, the tests), else from SSM, where `npx sst secrets set TARGET_<ID>_URL …` put them. Errors
 * name the target and the secret, never a value.
 */
export function targetResolver(
  env: Env,
  targets: Record<string, Target>,
  { allowLoopbackHttp, read = readSstSecrets }: { allowLoopbackHttp: boolean; read?: SecretReader },
): (targetId: string) => Promise<ResolvedTarget> {
  const cache = new Map<string, Promise<ResolvedTarget>>();
  const resolve = async (targetId: string): Promise<ResolvedTarget> => {
    const target = targets[targetId];
    if (!target) throw new Error(`target ${targetId} is not in the groups file's targets`);
    const names = targetSecretNames(targetId);
    const wanted = target.kind === "webhook" ? [names.url, names.secret] : [names.url];
    const values =
      env[names.url] !== undefined || !env.SST_APP
        ? Object.fromEntries(wanted.map((name) => [name, env[name]]))
        : await read(env, wanted);
    const url = values[names.url];
    if (!url) throw new Error(`target ${targetId}: ${names.url} is not set`);
    const resolved: ResolvedTarget = {
      ...target,
      id: targetId,
      url: parseTargetUrl(targetId, target.kind, url, { allowLoopbackHttp }),
    };
    if (target.kind !== "webhook") return resolved;
    const key = webhookSecretSchema.safeParse(values[names.secret] ?? "");
    if (!key.success) throw new Error(`target ${targetId}: ${names.secret} ${key.error.issues[0]?.message}`);
    return { ...resolved, key: key.data };
  };
  return (targetId) => {
    let found = cache.get(targetId);
    if (!found) {
      found = resolve(targetId).catch((error: unknown) => {
        cache.delete(targetId);
        throw error;
      });
      cache.set(targetId, found);
    }
    return found;
  };
}
