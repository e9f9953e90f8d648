import * as z from "zod";
import { Credentials, type CredentialsInput } from "./credentials.js";
import type { EndpointName } from "./endpoints.js";
import {
  DeviceCloudInvalidArgumentError,
  DeviceCloudInvalidResponseError,
  toValidationIssues,
} from "./errors.js";
import {
  EventCollector,
  type EventQueryResult,
  type EventRows,
  type FilterWithColumns,
  type FilterWithoutColumns,
  readEventAnswer,
} from "./event-query.js";
import { type JsonBodyValue, stringifyFlatBody } from "./json.js";
import { downloadPlayback, type PlaybackDownload } from "./playback.js";
import {
  buildPlaybackUrl,
  type PlaybackRequestInput,
  type PlaybackUrl,
  playbackRequestSchema,
} from "./playback-request.js";
import type { DeviceCloud } from "./ports.js";
import { type ClientLogger, retryPolicySchema } from "./retry.js";
import {
  type DeviceRequest,
  type DeviceSettings,
  type DeviceStatus,
  deviceRequestSchema,
  deviceSettingsSchema,
  deviceStatusSchema,
  type FleetDevice,
  fleetDeviceSchema,
  type GpsHistoryRequest,
  type GpsPoint,
  gpsHistoryRequestSchema,
  gpsHistorySchema,
  type OnlineDevice,
  onlineDevicesSchema,
  registeredDevicesSchema,
} from "./schemas/devices.js";
import {
  type DeviceEvent,
  deviceEventSchema,
  type EventColumn,
  eventColumnsSchema,
  eventQueryFilterSchema,
} from "./schemas/events.js";
import {
  type DailyRecordMap,
  type DailyRecordMapRequest,
  dailyRecordMapRequestSchema,
  dailyRecordMapSchema,
  type RecordEntry,
  recordListSchema,
} from "./schemas/records.js";
import type { TransportOptions } from "./transport.js";
import { postJson } from "./transport.js";

export const clientSettingsSchema = z.strictObject({
  /** The service's base address; http(s) only, and no user:password@ part (it would end up in logs). */
  baseUrl: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).refine((text) => {
    const url = new URL(text);
    return url.username === "" && url.password === "";
  }, "must not contain credentials"),
  /** Per attempt of a POST call, from sending to having the whole JSON body. */
  timeoutMs: z.number().int().positive().default(10_000),
  retry: retryPolicySchema.prefault({}),
  playback: z
    .strictObject({
      responseTimeoutMs: z.number().int().positive().default(30_000),
      idleTimeoutMs: z.number().int().positive().default(30_000),
    })
    .prefault({}),
});
export type ClientSettings = z.input<typeof clientSettingsSchema>;

export interface DeviceCloudClientOptions extends ClientSettings {
  credentials: CredentialsInput | Credentials;
  /** Receives a warning per retry (endpoint, attempt, delay, error message); never a credential. */
  logger?: ClientLogger;
  /** The jitter's source of randomness; tests may pin it. */
  random?: () => number;
}

export interface CallOptions {
  /** Aborts the call, retries and back-off included (the Lambda deadline, say). */
  signal?: AbortSignal;
}

export type {
  EventQueryResult,
  EventRows,
  FilterWithColumns,
  FilterWithoutColumns,
  RejectedEvent,
} from "./event-query.js";

/**
 * A typed client for the device tracking and recording cloud service: one method per operation of
 * the spec. Arguments are validated before any request; responses are validated with zod. Errors
 * are DeviceCloudError subclasses whose messages name the operation and carry no credential.
 */
export class DeviceCloudClient implements DeviceCloud {
  readonly #credentials: Credentials;
  readonly #transport: TransportOptions;
  readonly #playbackTimeouts: { responseTimeoutMs: number; idleTimeoutMs: number };

  constructor(options: DeviceCloudClientOptions) {
    const { credentials, logger, random, ...rest } = options;
    const settings = clientSettingsSchema.safeParse(rest);
    if (!settings.success) {
      throw new DeviceCloudInvalidArgumentError("configuration", toValidationIssues(settings.error.issues));
    }
    this.#credentials = credentials instanceof Credentials ? credentials : Credentials.from(credentials);
    const hash = this.#credentials.passwordHash;
    this.#transport = {
      baseUrl: new URL(settings.data.baseUrl),
      timeoutMs: settings.data.timeoutMs,
      retry: settings.data.retry,
      logger,
      random: random ?? Math.random,
      secrets: [hash],
    };
    this.#playbackTimeouts = settings.data.playback;
  }

  get username(): string {
    return this.#credentials.username;
  }

  /** 1. GPS history of a device between two UNIX times (seconds, or Dates). */
  gpsHistory(request: GpsHistoryRequest, options?: CallOptions): Promise<GpsPoint[]> {
    return this.#call("gpsHistory", gpsHistoryRequestSchema, request, gpsHistorySchema, options);
  }

  /** 2. A device's settings. Its Wi-Fi password (`net_wfpwd`) comes as a Secret. */
  deviceSettings(request: DeviceRequest, options?: CallOptions): Promise<DeviceSettings> {
    return this.#call("deviceSettings", deviceRequestSchema, request, deviceSettingsSchema, options);
  }

  /** 3. Status of the devices that are online. */
  onlineDevices(options?: CallOptions): Promise<OnlineDevice[]> {
    return this.#call("onlineDevices", undefined, {}, onlineDevicesSchema, options);
  }

  /** 4. The recordings on a device's SD card. */
  recordList(request: DeviceRequest, options?: CallOptions): Promise<RecordEntry[]> {
    return this.#call("recordList", deviceRequestSchema, request, recordListSchema, options);
  }

  /** 5. One device's status. Administrator accounts only. */
  deviceStatus(request: DeviceRequest, options?: CallOptions): Promise<DeviceStatus> {
    return this.#call("deviceStatus", deviceRequestSchema, request, deviceStatusSchema, options);
  }

  /**
   * 6. Status of every device, with vehicle, driver and channel. Each entry is validated on its own:
   * one malformed device (a name of a hundred thousand characters, say) is left out and logged by
   * its position and issues, never its values, instead of costing every device its name.
   */
  async allDevices(options?: CallOptions): Promise<FleetDevice[]> {
    const json = await this.#post("allDevices", {}, options);
    if (!Array.isArray(json)) {
      throw new DeviceCloudInvalidResponseError("allDevices", "expected a JSON array of devices", []);
    }
    const devices: FleetDevice[] = [];
    for (const [index, raw] of json.entries()) {
      const parsed = fleetDeviceSchema.safeParse(raw);
      if (parsed.success) devices.push(parsed.data);
      else
        this.#transport.logger?.warn("a device of the all-devices list does not match the spec; left out", {
          endpoint: "allDevices",
          index,
          issues: toValidationIssues(parsed.error.issues).map((issue) => `${issue.path}: ${issue.message}`),
        });
    }
    return devices;
  }

  /** 7. The registered device identifiers. Administrator accounts only. */
  registeredDevices(options?: CallOptions): Promise<string[]> {
    return this.#call("registeredDevices", undefined, {}, registeredDevicesSchema, options);
  }

  /** 9. The minute-by-minute record map (1440 values) of the day starting at `date`. */
  dailyRecordMap(request: DailyRecordMapRequest, options?: CallOptions): Promise<DailyRecordMap> {
    return this.#call("dailyRecordMap", dailyRecordMapRequestSchema, request, dailyRecordMapSchema, options);
  }

  /**
   * 10. The event log, with any of the spec's filters, read whole into arrays: for answers the
   * caller knows to be small. `readEvents` reads an answer of any length.
   */
  queryEvents(filter?: FilterWithoutColumns, options?: CallOptions): Promise<EventQueryResult<DeviceEvent>>;
  queryEvents<C extends EventColumn>(
    filter: FilterWithColumns<C>,
    options?: CallOptions,
  ): Promise<EventQueryResult<Pick<DeviceEvent, C>>>;
  async queryEvents(
    filter: FilterWithoutColumns | FilterWithColumns<EventColumn> = {},
    options?: CallOptions,
  ): Promise<EventQueryResult<Partial<DeviceEvent>>> {
    const collected = await this.readEvents(
      filter as FilterWithoutColumns,
      () => new EventCollector(),
      options,
    );
    return { events: collected.events, rejected: collected.rejected };
  }

  /**
   * 10. The event log, read row by row as the answer arrives, never held whole: each event is
   * validated on its own and handed to the rows `open` makes for the attempt (a malformed one goes
   * to `onRejected`, raw payload kept, instead of failing the others). A retried attempt starts
   * over with fresh rows; the rows of the attempt that read the whole answer are returned. With
   * `columns`, events carry (and are checked for) exactly those fields.
   */
  readEvents<R extends EventRows<DeviceEvent>>(
    filter: FilterWithoutColumns,
    open: () => R,
    options?: CallOptions,
  ): Promise<R>;
  readEvents<C extends EventColumn, R extends EventRows<Pick<DeviceEvent, C>>>(
    filter: FilterWithColumns<C>,
    open: () => R,
    options?: CallOptions,
  ): Promise<R>;
  async readEvents(
    filter: FilterWithoutColumns | FilterWithColumns<EventColumn>,
    open: () => EventRows<Partial<DeviceEvent>>,
    options?: CallOptions,
  ): Promise<EventRows<Partial<DeviceEvent>>> {
    const parsedFilter = this.#validateArgument("eventQuery", eventQueryFilterSchema, filter);
    const eventSchema = parsedFilter.columns ? eventColumnsSchema(parsedFilter.columns) : deviceEventSchema;
    return readEventAnswer(this.#transport, this.#body(parsedFilter), eventSchema, open, options?.signal);
  }

  /** The playback URL for a request (validated), with a redacted copy for logs and manifests. */
  playbackUrl(request: PlaybackRequestInput): PlaybackUrl {
    const parsed = this.#validateArgument("playback", playbackRequestSchema, request);
    return buildPlaybackUrl(this.#transport.baseUrl, this.#credentials, parsed);
  }

  /**
   * 8. Downloads an MP4 playback as a stream. The request is validated before anything is sent;
   * the status and the `ftyp` box are checked before the stream is returned.
   */
  async downloadPlayback(request: PlaybackRequestInput, options?: CallOptions): Promise<PlaybackDownload> {
    const playback = this.playbackUrl(request);
    return downloadPlayback(this.#transport, playback, this.#playbackTimeouts, options?.signal);
  }

  async #call<Req extends z.ZodType<Record<string, JsonBodyValue | undefined>>, Res extends z.ZodType>(
    endpoint: EndpointName,
    requestSchema: Req | undefined,
    request: unknown,
    responseSchema: Res,
    options: CallOptions | undefined,
  ): Promise<z.output<Res>> {
    const parameters = requestSchema ? this.#validateArgument(endpoint, requestSchema, request) : {};
    const json = await this.#post(endpoint, parameters, options);
    const parsed = responseSchema.safeParse(json);
    if (!parsed.success) {
      throw new DeviceCloudInvalidResponseError(
        endpoint,
        "response does not match the spec",
        toValidationIssues(parsed.error.issues),
      );
    }
    return parsed.data;
  }

  #validateArgument<S extends z.ZodType>(endpoint: EndpointName, schema: S, value: unknown): z.output<S> {
    const parsed = schema.safeParse(value);
    if (!parsed.success)
      throw new DeviceCloudInvalidArgumentError(endpoint, toValidationIssues(parsed.error.issues));
    return parsed.data;
  }

  #post(
    endpoint: EndpointName,
    parameters: Readonly<Record<string, JsonBodyValue | undefined>>,
    options: CallOptions | undefined,
  ): Promise<unknown> {
    return postJson(this.#transport, endpoint, this.#body(parameters), options?.signal);
  }

  #body(parameters: Readonly<Record<string, JsonBodyValue | undefined>>): string {
    return stringifyFlatBody({
      username: this.#credentials.username,
      password: this.#credentials.passwordHash,
      ...parameters,
    });
  }
}
