import { GetQueueAttributesCommand } from "@aws-sdk/client-sqs";
import {
  announceOnce,
  EVIDENCE_CLAIM_LEASE_MS,
  evidenceAnnouncement,
  evidenceJobSchema,
} from "@fleet-alerts/core/evidence";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type EvidenceHarness, startEvidenceHarness } from "../support/evidence-harness.js";

// The "evidence ready" notice through the evidence function's SQS handler on the emulators: sent
// once whichever delivery of a job gets there, never lost by a delivery that dies after its claim.
// Claims are timed on a wall clock the tests move.
let harness: EvidenceHarness;
beforeAll(async () => {
  harness = await startEvidenceHarness({ bitrateBitsPerSecond: 128_000 });
});
afterAll(() => harness.close());

const WALL_MS = Date.parse("2027-01-01T00:00:00Z");

/** The evidence notices of an alert that reached the alerts topic's subscribers. */
async function noticesOf(alertId: string, atLeast = 0) {
  const messages = await harness.emulators.readInbox({ atLeast, waitMs: atLeast ? 3_000 : 500 });
  return messages.filter(
    (message) =>
      message.attributes.kind?.value === "evidence" && message.attributes.alert_id?.value === alertId,
  );
}

/** Jobs the evidence queue holds back (sent with a delay). */
async function delayedJobs(): Promise<number> {
  const { Attributes = {} } = await harness.emulators.clients.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: harness.emulators.queues.evidence,
      AttributeNames: ["ApproximateNumberOfMessagesDelayed"],
    }),
  );
  return Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0);
}

describe("the evidence-ready notice", () => {
  it("goes out once when two deliveries of the job run at once", async () => {
    const { job } = await harness.jobFor({ minutesAgo: 60, before: 20, after: 20, channels: [1] });
    const wall = { wallClock: () => WALL_MS };
    const failed = await Promise.all([
      harness.deliver([job], 1, harness.env, wall),
      harness.deliver([job], 1, harness.env, wall),
    ]);
    expect(failed.flat()).toEqual([]);
    const [notice, ...more] = await noticesOf(job.alertId, 1);
    expect(more).toEqual([]);
    // The same id on any message of this notice, a re-send after a take-over included.
    expect(notice?.attributes.notice_id?.value).toBe(`evidence:${job.alertId}`);
    expect(await noticesOf(job.alertId)).toEqual([]);
  });

  it("is claimed by one of two announcements that meet at the claim", async () => {
    const job = evidenceJobSchema.parse(
      (await harness.jobFor({ minutesAgo: 80, before: 20, after: 20 })).job,
    );
    const message = evidenceAnnouncement(job, { status: "unavailable" });
    const { deps } = harness.direct;
    const outcomes = await Promise.all([announceOnce(job, message, deps), announceOnce(job, message, deps)]);
    expect(outcomes).toContain("sent");
    expect(outcomes.filter((outcome) => outcome === "sent")).toHaveLength(1);
    expect(await noticesOf(job.alertId, 1)).toHaveLength(1);
  });

  it("after a delivery died between its claim and the publish: nothing within the wall clock's lease (the job comes back later), then once", async () => {
    const { job, serialno } = await harness.jobFor({ minutesAgo: 70, before: 20, after: 20, channels: [1] });
    // The topic is not there for the first delivery: it claims, stores the bag, and fails at the publish.
    const topicGone = { ...harness.env, ALERTS_TOPIC_ARN: `${harness.env.ALERTS_TOPIC_ARN}-gone` };
    expect(await harness.deliver([job], 1, topicGone, { wallClock: () => WALL_MS })).toEqual(["m0"]);
    expect(await harness.alerts.get("east", serialno, "shock")).toMatchObject({
      evidenceStatus: "stored",
      evidenceAnnouncementClaimedAtMs: WALL_MS,
    });

    // SQS delivers it again while the claim is live, though the business clock is hours on: this
    // delivery does not send beside a holder that may still work, nor end quietly. It sends the job
    // back, to look again after SQS's longest delay.
    const delayedBefore = await delayedJobs();
    const withinLease = { now: () => Date.now() + 6 * 3_600_000, wallClock: () => WALL_MS + 60_000 };
    expect(await harness.deliver([job], 2, harness.env, withinLease)).toEqual([]);
    expect(await noticesOf(job.alertId)).toEqual([]);
    expect(await delayedJobs()).toBe(delayedBefore + 1);

    // The job back after the lease: the claim is taken over and the notice sent, once.
    const pastLease = { wallClock: () => WALL_MS + EVIDENCE_CLAIM_LEASE_MS };
    expect(await harness.deliver([job], 1, harness.env, pastLease)).toEqual([]);
    const [notice, ...more] = await noticesOf(job.alertId, 1);
    expect(more).toEqual([]);
    expect(notice?.attributes.notice_id?.value).toBe(`evidence:${job.alertId}`);
    expect(await harness.alerts.get("east", serialno, "shock")).toMatchObject({
      evidenceAnnouncedAt: expect.any(String),
    });
    expect(await harness.deliver([job], 1, harness.env, pastLease)).toEqual([]);
    expect(await noticesOf(job.alertId)).toEqual([]);
  });
});
