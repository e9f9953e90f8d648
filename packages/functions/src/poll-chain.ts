import { awsJson } from "@fleet-alerts/core/aws-text";
import {
  type AccountPoller,
  type ChainPoll,
  chainStartedAt,
  delaySecondsUntil,
  nextPollTimer,
  PollFailedError,
  type PollResult,
  type PollSummary,
  type PollTimer,
  pollTimerSchema,
  runPollers,
} from "@fleet-alerts/core/poller";
import type { SQSEvent, SQSRecord } from "aws-lambda";
import { publishFailedLags, publishPollMetrics } from "./observability.js";
import type { PollerRuntime } from "./runtime.js";

/**
 * One poll of one account, reported: its summary observed and its metrics published, or its
 * failure's lag published. A poll a timer started that found nothing reports nothing: an idle
 * account's chain would otherwise log a line every few seconds; its watchdog's poll reports each
 * minute (the lag alarm's metric among them).
 */
export async function pollReported(
  runtime: PollerRuntime,
  poller: AccountPoller,
  { times, quietWhenIdle, chain }: { times: PollTimes; quietWhenIdle: boolean; chain?: ChainStep },
): Promise<{ result: PollResult; summaries: PollSummary[]; error?: Error }> {
  const startedMs = Date.now();
  const report = (summaries: readonly PollSummary[]) => {
    for (const summary of summaries) {
      if (quietWhenIdle && foundNothing(summary)) continue;
      runtime.observer.observe({ type: "poll-summary", ...summary });
      publishPollMetrics(summary, Date.now() - startedMs);
    }
  };
  try {
    const summaries = await runPollers([poller], { ...times, ...(chain && { chain }) });
    report(summaries);
    const refused = summaries.some((summary) => summary.outcome === "locked");
    return { result: refused ? "refused" : "polled", summaries };
  } catch (error) {
    if (!(error instanceof PollFailedError)) throw error;
    report(error.summaries);
    publishFailedLags(error.failures);
    return { result: "failed", summaries: error.summaries, error };
  }
}

const foundNothing = (summary: PollSummary) =>
  summary.outcome === "caught-up" && summary.eventsRead === 0 && summary.rejected === 0;

/** When a poll of this invocation stops starting chunks, and when the invocation ends (Lambda's time-out). */
export interface PollTimes {
  deadlineMs: number;
  endsAtMs: number;
}

/**
 * One poll of a chain and the chain's next timer, decided once: when the poll ends well it is asked
 * whether the chain goes on (to leave the lease to the next poll, by its token), and the same
 * answer is sent. The next timer carries the token the lease is left under: this poll's when it
 * handed the lease over, else the one it was handed (a poll that took no lease left it as it was).
 */
class ChainStep implements ChainPoll {
  readonly handedOverBy: string | undefined;
  readonly last: boolean;
  #next: { timer: PollTimer | undefined } | undefined;
  #leftUnder: string | undefined;

  constructor(
    private readonly timer: PollTimer,
    private readonly everyMs: number,
    private readonly watchdog: boolean,
  ) {
    this.handedOverBy = timer.lease;
    this.#leftUnder = timer.lease;
    // Even if it ends on time, no poll follows it.
    this.last = nextPollTimer(timer, "polled", timer.plannedMs, everyMs, { watchdog }) === undefined;
  }

  goesOn(token: string): boolean {
    this.#next = { timer: this.#after("polled", token) };
    if (this.#next.timer !== undefined) this.#leftUnder = token;
    return this.#next.timer !== undefined;
  }

  /** The chain's next timer after this poll ended with `result`; undefined: the chain ends. */
  next(result: PollResult): PollTimer | undefined {
    return result === "polled" && this.#next ? this.#next.timer : this.#after(result, this.#leftUnder);
  }

  #after(result: PollResult, lease: string | undefined): PollTimer | undefined {
    return nextPollTimer(this.timer, result, Date.now(), this.everyMs, { watchdog: this.watchdog, lease });
  }
}

/**
 * The chain step of a poll, when the stage polls on a chain (POLL_EVERY_SECONDS); the watchdog's
 * poll of an account (its EventBridge schedule, every minute) starts the minute's chain.
 */
function chainStepOf(
  runtime: PollerRuntime,
  timer: PollTimer,
  { watchdog }: { watchdog: boolean },
): ChainStep | undefined {
  const { POLL_EVERY_SECONDS } = runtime.config;
  if (POLL_EVERY_SECONDS === undefined || runtime.timers === undefined) return undefined;
  return new ChainStep(timer, POLL_EVERY_SECONDS * 1000, watchdog);
}

/**
 * The watchdog's poll of an account (its EventBridge schedule, every minute, at `startedMs`): the
 * first of the minute's chain, which it starts (none when the stage polls once a minute).
 */
export async function pollWatched(
  runtime: PollerRuntime,
  poller: AccountPoller,
  times: PollTimes,
  startedMs: number,
): ReturnType<typeof pollReported> {
  const { account } = poller.settings;
  const chain = chainStepOf(runtime, chainStartedAt(account, startedMs), { watchdog: true });
  const outcome = await pollReported(runtime, poller, {
    times,
    quietWhenIdle: false,
    ...(chain && { chain }),
  });
  await sendNext(runtime, account, chain?.next(outcome.result));
  return outcome;
}

/**
 * One timer of a chain: its account polled once, then the chain's next timer sent. A timer past
 * its chain's minute (SQS delivered it again late) is dropped: the watchdog has started the next
 * chain. A timer whose poll is refused the lease it was handed (a copy) ends its copy of the chain.
 * Nothing here throws for a failed poll (the message would come back and poll out of turn): the
 * chain backs off instead. A timer that cannot be read is dropped with a warning.
 */
export async function pollTimed(
  runtime: PollerRuntime,
  record: SQSRecord,
  times: PollTimes,
): Promise<PollSummary[]> {
  const timer = readTimer(runtime, record);
  if (timer === undefined || Date.now() >= timer.untilMs) return [];
  const poller = runtime.pollers.find((candidate) => candidate.settings.account === timer.account);
  if (poller === undefined) {
    runtime.logger.warn("a poll timer for an account not configured; dropped", { account: timer.account });
    return [];
  }
  const chain = chainStepOf(runtime, timer, { watchdog: false });
  const { result, summaries } = await pollReported(runtime, poller, {
    times,
    quietWhenIdle: true,
    ...(chain && { chain }),
  });
  await sendNext(runtime, timer.account, chain?.next(result));
  return summaries;
}

export const isTimerEvent = (event: unknown): event is SQSEvent =>
  typeof event === "object" && event !== null && Array.isArray((event as Partial<SQSEvent>).Records);

/** The account a timer names, for its runtime (only its secrets are read); the timer is checked by `pollTimed`. */
export function timerAccount(body: string): string | undefined {
  try {
    const { account } = JSON.parse(body) as { account?: unknown };
    return typeof account === "string" && account.length > 0 ? account : undefined;
  } catch {
    return undefined;
  }
}

function readTimer(runtime: PollerRuntime, record: SQSRecord): PollTimer | undefined {
  let body: unknown;
  try {
    body = JSON.parse(record.body);
  } catch {
    body = undefined;
  }
  const parsed = pollTimerSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  runtime.logger.warn("a poll timer that is not one; dropped", {
    messageId: record.messageId,
    issues: parsed.error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) ?? [],
  });
  return undefined;
}

/**
 * Sends the chain's next timer, if it goes on. A send that fails ends the chain early (logged):
 * the account's next watchdog run starts it again, within a minute (a lease left to the timer that
 * was not sent expires before then).
 */
async function sendNext(runtime: PollerRuntime, account: string, next: PollTimer | undefined): Promise<void> {
  if (next === undefined || runtime.timers === undefined) return;
  const nowMs = Date.now();
  try {
    const refused = await runtime.timers.send([
      { body: awsJson(next), delaySeconds: delaySecondsUntil(next.plannedMs, nowMs) },
    ]);
    if (refused.length > 0) throw new Error(refused[0]?.reason);
  } catch (error) {
    runtime.logger.error("the next poll timer was not sent; the watchdog restarts the chain", {
      account,
      error: (error as Error).message,
    });
  }
}
