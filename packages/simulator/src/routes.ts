/**
 * The nine POST endpoints. Each request goes through the same checks, in order:
 * Content-Type application/json (400), a JSON object body (400), no unknown fields (400),
 * username/password present (400), credentials (401), admin-only endpoints (403), the endpoint's
 * own fields (400), the device exists (404).
 */
import type { Accounts } from "./auth.js";
import type { DeviceActivity } from "./device.js";
import type { EndpointName } from "./endpoints.js";
import { toWireEvent } from "./events.js";
import { EVENT_QUERY_FIELDS, parseEventQuery, selectEvents } from "./filters.js";
import { toWireGpsPoint } from "./gpstrack.js";
import { shapePage } from "./harsh.js";
import { type BodyReply, HttpError, jsonReply } from "./http.js";
import { isJsonObject, type JsonObject, JsonSyntaxError, type JsonValue, parseJson } from "./json.js";
import type { ResolvedHarshOptions } from "./options.js";
import { invalid, rejectUnknownFields, requiredInteger, requiredString } from "./params.js";
import type { Rng } from "./rng.js";
import type { Simulation } from "./simulation.js";
import { allListEntry, onlineListEntry, singleDeviceStatus } from "./status.js";

export interface RouteContext {
  simulation: Simulation;
  accounts: Accounts;
  harsh(): ResolvedHarshOptions;
  /** Draws for duplicateRate. */
  harshRng: Rng;
  timeZoneOffsetMinutes: number;
}

export type PostEndpoint = Exclude<EndpointName, "dlplayback">;

interface PostRoute {
  /** Body fields besides username and password. */
  fields: readonly string[];
  adminOnly?: boolean;
  handle(body: JsonObject, context: RouteContext): unknown;
}

const ROUTES: Readonly<Record<PostEndpoint, PostRoute>> = {
  gps: {
    fields: ["deviceid", "start", "end"],
    // Both ends inclusive (not shown in the spec).
    handle: (body, context) => {
      const start = requiredInteger(body, "start");
      const end = requiredInteger(body, "end");
      if (start < 0) throw invalid("start", "a non-negative UNIX time in seconds");
      if (end < start) throw invalid("end", "at or after start");
      return requireDevice(body, context).track.range(start, end).map(toWireGpsPoint);
    },
  },
  mdvrsetting: {
    fields: ["deviceid"],
    handle: (body, context) => requireDevice(body, context).profile.settings,
  },
  onlinelist: {
    fields: [],
    handle: (_body, context) =>
      context.simulation.devices.filter((device) => device.status().online).map(onlineListEntry),
  },
  recordlist: {
    fields: ["deviceid"],
    handle: (body, context) => requireDevice(body, context).recordings.recordList(),
  },
  device: {
    fields: ["deviceid"],
    adminOnly: true,
    handle: (body, context) => singleDeviceStatus(requireDevice(body, context)),
  },
  alllist: {
    fields: [],
    handle: (_body, context) => context.simulation.devices.map(allListEntry),
  },
  registered: {
    fields: [],
    adminOnly: true,
    handle: (_body, context) => context.simulation.devices.map((device) => device.profile.deviceid),
  },
  record: {
    fields: ["deviceid", "date"],
    handle: (body, context) => {
      const date = requiredInteger(body, "date");
      return requireDevice(body, context).recordings.dailyMap(date);
    },
  },
  eventquery: {
    fields: EVENT_QUERY_FIELDS,
    handle: (body, context) => {
      const harsh = context.harsh();
      const query = parseEventQuery(body, context.timeZoneOffsetMinutes, harsh.ignores);
      const selected = selectEvents(context.simulation.log, query, harsh.maxResults);
      return shapePage(selected, harsh, context.harshRng).map((entry) =>
        toWireEvent(entry.event, query.columns),
      );
    },
  },
};

export function handlePost(
  endpoint: PostEndpoint,
  contentType: string | undefined,
  rawBody: Buffer,
  context: RouteContext,
): BodyReply {
  const mediaType = contentType?.split(";")[0]?.trim().toLowerCase();
  if (mediaType !== "application/json") {
    throw new HttpError(400, "invalid_content_type", "Content-Type must be application/json");
  }
  const body = parseBody(rawBody);
  const route = ROUTES[endpoint];
  rejectUnknownFields(body, ["username", "password", ...route.fields]);
  const account = context.accounts.authenticate(
    requiredString(body, "username"),
    requiredString(body, "password"),
  );
  if (route.adminOnly) context.accounts.requireAdmin(account);
  return jsonReply(200, route.handle(body, context));
}

function parseBody(rawBody: Buffer): JsonObject {
  let parsed: JsonValue;
  try {
    parsed = parseJson(new TextDecoder("utf-8", { fatal: true }).decode(rawBody));
  } catch (error) {
    const where = error instanceof JsonSyntaxError ? `: ${error.message}` : " (not UTF-8)";
    throw new HttpError(400, "invalid_json", `the body is not valid JSON${where}`);
  }
  if (!isJsonObject(parsed)) throw new HttpError(400, "invalid_json", "the body must be a JSON object");
  return parsed;
}

function requireDevice(body: JsonObject, context: RouteContext): DeviceActivity {
  const deviceid = requiredString(body, "deviceid");
  const device = context.simulation.device(deviceid);
  if (!device) throw new HttpError(404, "unknown_device", `device ${deviceid} is not registered`);
  return device;
}
