/**
 * What `fleet-alerts doctor` asks of a stage, one narrow port per kind of resource. Each has an
 * adapter on the AWS SDK v3 clients (this folder) or on the stage's secret store (the CLI's), and
 * fakes in the unit tests.
 */

/** The stage's resources the checks look at; nothing in it is secret. */
export interface DoctorTarget {
  stage: string;
  /** The device-cloud accounts the stage polls. */
  accounts: readonly string[];
  /** The lag alarm's threshold (the stage's `lagAlarmSeconds`). */
  lagThresholdSeconds: number;
  deadLetterQueues: readonly QueueRef[];
  /** The topics whose subscriptions deliver alerts, escalations and alarms. */
  topics: readonly TopicRef[];
  evidenceBucket: string;
  /** The Time-Stamp Authority, when the stage stamps its claim packs. */
  tsaUrl?: string;
  /** The incident pages' base address. */
  incidentBaseUrl: string;
}

export interface QueueRef {
  name: string;
  url: string;
}

export interface TopicRef {
  name: string;
  arn: string;
}

/** An account's device-cloud connection, only once every one of its secrets is set. */
export interface AccountConnection {
  baseUrl: string;
  username: string;
  password: string;
}

export type AccountSecretsRead =
  | { missing: readonly string[] }
  | { missing: readonly []; connection: AccountConnection };

/** Where the stage keeps each account's secrets (SSM in a deployed stage, the environment locally). */
export interface SecretSource {
  /** The names of the account's secrets that are not set, or its connection; never logs a value. */
  read(account: string): Promise<AccountSecretsRead>;
  /** How the operator sets the secret `name` on this stage. */
  howToSet(name: string): string;
}

export type LoginOutcome =
  | { accepted: true; ms: number }
  /** `refused`: the service answered that the credentials are wrong; else it could not be asked. */
  | { accepted: false; refused: boolean; reason: string };

/** One cheap call to the device cloud with an account's credentials. */
export interface DeviceCloudLogin {
  check(connection: AccountConnection, timeoutMs: number): Promise<LoginOutcome>;
}

/** What the poller leaves in the table of an account's last polls. */
export interface PollRecord {
  /** When a poll last read up to the newest event (the lock item's `caughtUpAtMs`). */
  caughtUpAtMs?: number;
  /** Where the account's cursor is, and when it last moved (with events read). */
  cursor?: { serialno: bigint; movedAtMs?: number };
}

export interface PollRecords {
  read(account: string): Promise<PollRecord>;
}

export interface ScheduleState {
  name: string;
  enabled: boolean;
}

/** What starts the polls: EventBridge rules in a deployed stage, the local mode's own loops locally. */
export interface Schedules {
  list(): Promise<ScheduleState[]>;
  /** How to turn a disabled one on again. */
  howToEnable(name: string): string;
}

export interface QueueDepth {
  arn: string;
  /** Visible and in flight: every message that has not been deleted. */
  messages: number;
}

export interface QueueDepths {
  depth(url: string): Promise<QueueDepth>;
}

export interface SubscriptionCounts {
  confirmed: number;
  /** Subscriptions whose endpoint has not confirmed yet: they receive nothing. */
  pending: number;
}

export interface TopicSubscriptions {
  count(topicArn: string): Promise<SubscriptionCounts>;
}

export type ObjectLockState =
  | { enabled: true; mode?: string; days?: number; years?: number }
  | { enabled: false }
  /** The store cannot say (the local mode's S3 emulator has no Object Lock). */
  | { unsupported: string };

export interface ObjectLockSettings {
  state(bucket: string): Promise<ObjectLockState>;
}

export type HttpAnswer = { status: number; ms: number } | { error: string };

/** A plain request to an address, within `timeoutMs`; never throws. */
export interface HttpProbe {
  get(url: string, timeoutMs: number): Promise<HttpAnswer>;
}

export interface DoctorPorts {
  secrets: SecretSource;
  login: DeviceCloudLogin;
  polls: PollRecords;
  schedules: Schedules;
  queues: QueueDepths;
  subscriptions: TopicSubscriptions;
  objectLock: ObjectLockSettings;
  http: HttpProbe;
  /** The stage's clock (the local mode's may run faster than real time). */
  now: () => number;
}
