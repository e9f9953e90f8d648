import type { Hono } from "hono";
import { handle } from "hono/aws-lambda";
import { createIncidentApp } from "./incident/app.js";
import { buildIncidentDeps, type IncidentOverrides } from "./incident-runtime.js";
import { cachedOnSuccess } from "./once.js";
import { withFormSecret } from "./secrets.js";

type Env = Readonly<Record<string, string | undefined>>;
type LambdaHandler = ReturnType<typeof handle>;

/**
 * The incident function: the incident app behind the HTTP API. The app and its adapters are built
 * on the first request of a container and kept (a failed build is tried again on the next one).
 */
export function createIncidentHandler(env: Env): LambdaHandler {
  const getHandler = cachedOnSuccess(async () => handle(await buildIncidentApp(await withFormSecret(env))));
  return (async (event, context) => (await getHandler())(event, context)) as LambdaHandler;
}

/** The app with its real adapters, as Lambda, the local mode and the tests serve it. */
export async function buildIncidentApp(env: Env, overrides: IncidentOverrides = {}): Promise<Hono> {
  return createIncidentApp(await buildIncidentDeps(env, overrides));
}

export const handler = createIncidentHandler(process.env);
