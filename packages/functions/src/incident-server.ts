import type { AddressInfo } from "node:net";
import { type ServerType, serve } from "@hono/node-server";
import type { Hono } from "hono";
import { buildIncidentApp } from "./incident.js";
import type { IncidentOverrides } from "./incident-runtime.js";

type Env = Readonly<Record<string, string | undefined>>;

export interface IncidentServer {
  /** `http://127.0.0.1:<port>`: what links start with. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * The incident app on Node, on 127.0.0.1 only (port 0: any free one), for the local mode and the
 * tests. The server listens before the app is built, as the app's public origin is its own address;
 * `env(baseUrl)` gives the environment the app is built from.
 */
export async function serveIncidentApp(
  env: (baseUrl: string) => Env,
  overrides: IncidentOverrides = {},
  port = 0,
): Promise<IncidentServer> {
  let app: Hono | undefined;
  const server: ServerType = serve({
    // A fixed port is known before the app is built: a request that early is told to come back.
    fetch: (request) => app?.fetch(request) ?? new Response("starting", { status: 503 }),
    port,
    hostname: "127.0.0.1",
  });
  await new Promise((resolve, reject) => server.once("listening", resolve).once("error", reject));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    app = await buildIncidentApp(env(baseUrl), overrides);
  } catch (error) {
    server.close();
    throw error;
  }
  return {
    baseUrl,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
