import {
  acknowledge,
  ESCALATION_CLAIM_LEASE_MS,
  type EscalationJob,
  runEscalation,
} from "@fleet-alerts/core/escalation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type EscalationHarness,
  FIRED_AT_MS,
  firedAlert,
  ruleWith,
  startEscalationHarness,
} from "./harness.js";

let harness: EscalationHarness;
beforeAll(async () => {
  harness = await startEscalationHarness();
});
afterAll(async () => {
  await harness?.emulators.close();
});

const minutes = (count: number) => count * 60_000;
const twoLevels = ruleWith({ after: "10m", levels: 2 });

/** The levels of the escalation messages subscribers got, in order, with their subjects. */
async function escalationsSent(atLeast: number) {
  const messages = await harness.sentEscalations(atLeast);
  return messages
    .map((message) => ({
      level: Number(message.attributes.level?.value),
      subject: message.subject,
    }))
    .sort((a, b) => a.level - b.level);
}

describe("an unacknowledged alert", () => {
  it("escalates once per level, after 10 then 20 minutes, with the notice first", async () => {
    const alert = await firedAlert(harness, twoLevels);
    expect(alert.queue.delays).toEqual([600]);
    expect(await alert.drain()).toEqual(["escalated", "escalated"]);
    expect(
      alert
        .of("alert-escalated")
        .map(({ level, levels, unacknowledgedSeconds }) => [level, levels, unacknowledgedSeconds]),
    ).toEqual([
      [1, 2, 600],
      [2, 2, 1200],
    ]);
    expect(alert.clock.nowMs).toBe(FIRED_AT_MS + minutes(20));
    const sent = await escalationsSent(2);
    expect(sent.map(({ level }) => level)).toEqual([1, 2]);
    expect(sent[0]?.subject).toMatch(
      /^Not acknowledged after 10 min \(escalation level 1 of 2\): \[CRITICAL\]/,
    );
    expect(sent[1]?.subject).toMatch(/^Not acknowledged after 20 min \(escalation level 2 of 2\)/);
    const record = await harness.escalations.get(alert.key);
    expect(record).toMatchObject({
      escalation: { afterSeconds: 600, levels: 2 },
      escalatedLevels: 2,
      escalationsSent: 2,
    });
  });

  it("escalates exactly once per level when every job is delivered twice, one after the other", async () => {
    const alert = await firedAlert(harness, twoLevels);
    const outcomes = await alert.drain({ times: 2 });
    expect(outcomes.filter((outcome) => outcome === "escalated")).toHaveLength(2);
    expect(alert.of("alert-escalated").map(({ level }) => level)).toEqual([1, 2]);
    expect((await escalationsSent(2)).map(({ level }) => level)).toEqual([1, 2]);
  });

  it("escalates exactly once per level when two deliveries of each job run at once", async () => {
    const alert = await firedAlert(harness, twoLevels);
    const outcomes = await alert.drain({ times: 2, concurrently: true });
    expect(outcomes.filter((outcome) => outcome === "escalated")).toHaveLength(2);
    expect(alert.of("alert-escalated").map(({ level }) => level)).toEqual([1, 2]);
    expect((await escalationsSent(2)).map(({ level }) => level)).toEqual([1, 2]);
  });

  it("waits out a long policy in SQS's 15-minute steps", async () => {
    const alert = await firedAlert(harness, ruleWith({ after: "1h", levels: 1 }));
    expect(await alert.drain()).toEqual(["waiting", "waiting", "waiting", "escalated"]);
    expect(alert.queue.delays).toEqual([900, 900, 900, 900]);
    expect(alert.of("alert-escalated")[0]?.unacknowledgedSeconds).toBe(3600);
    expect(alert.clock.nowMs).toBe(FIRED_AT_MS + minutes(60));
    expect(await escalationsSent(1)).toHaveLength(1);
  });
});

describe("a crash", () => {
  it("between the claim and the publish still escalates exactly once when SQS delivers the job again", async () => {
    const alert = await firedAlert(harness, ruleWith({ after: "10m", levels: 1 }));
    const job = alert.queue.next() as EscalationJob;
    const publisher = alert.deps.escalationPublisher;
    const crashing = {
      ...alert.deps,
      escalationPublisher: { publish: () => Promise.reject(new Error("crash")) },
    };
    await expect(runEscalation(job, crashing)).rejects.toThrow("crash");
    expect(await harness.escalations.get(alert.key)).toMatchObject({
      escalatedLevels: 1,
      escalationsSent: 0,
    });
    // Redelivered after the visibility timeout: the claim may still be live, so the job looks again
    // until its lease has run out.
    alert.queue.redeliver(job, 60_000);
    const outcomes = await alert.drain();
    expect(outcomes.filter((outcome) => outcome === "waiting").length).toBeGreaterThan(0);
    expect(outcomes.filter((outcome) => outcome !== "waiting")).toEqual(["escalated"]);
    expect(alert.deps.escalationPublisher).toBe(publisher);
    expect(alert.of("alert-escalated")).toHaveLength(1);
    expect(await escalationsSent(1)).toHaveLength(1);
  });

  it("between the claim and the publish: a live claim is not taken over while only the business clock runs ahead", async () => {
    const alert = await firedAlert(harness, ruleWith({ after: "10m", levels: 1 }));
    const job = alert.queue.next() as EscalationJob;
    const crashing = {
      ...alert.deps,
      escalationPublisher: { publish: () => Promise.reject(new Error("crash")) },
    };
    await expect(runEscalation(job, crashing)).rejects.toThrow("crash");
    // The local mode's business clock runs 60 to 300 times faster: hours on it are seconds of the
    // wall clock the lease is measured on. A delivery now waits, and sends nothing.
    alert.clock.nowMs += 6 * 3_600_000;
    alert.clock.wallMs += 10_000;
    expect(await runEscalation(job, alert.deps)).toBe("waiting");
    // Sent back to look again in real seconds (never shortened by a fast clock), until the lease
    // has run out on the wall clock; then taken over and sent, once.
    expect(alert.queue.delays.at(-1)).toBe(10);
    expect(alert.queue.onWallClock.at(-1)).toBe(true);
    expect(await escalationsSent(0)).toEqual([]);
    const wallAtCrash = alert.clock.wallMs - 10_000;
    const outcomes = await alert.drain();
    expect(outcomes.at(-1)).toBe("escalated");
    expect(outcomes.slice(0, -1).every((outcome) => outcome === "waiting")).toBe(true);
    expect(alert.clock.wallMs - wallAtCrash).toBeGreaterThanOrEqual(ESCALATION_CLAIM_LEASE_MS);
    expect(await escalationsSent(1)).toHaveLength(1);
  });

  it("after the send and before the next level is queued still escalates the next level", async () => {
    const alert = await firedAlert(harness, twoLevels);
    const job = alert.queue.next() as EscalationJob;
    const queueDown = { ...alert.deps, escalationQueue: { send: () => Promise.reject(new Error("crash")) } };
    await expect(runEscalation(job, queueDown)).rejects.toThrow("crash");
    alert.queue.redeliver(job, 60_000);
    expect(await alert.drain()).toEqual(["already-sent", "escalated"]);
    expect((await escalationsSent(2)).map(({ level }) => level)).toEqual([1, 2]);
  });
});

describe("acknowledgement", () => {
  it("before level 1 is due stops every level", async () => {
    const alert = await firedAlert(harness, twoLevels);
    const at = FIRED_AT_MS + minutes(4);
    expect(await acknowledge(alert.alert, { by: "Ada", atMs: at, tokenId: "tok-1" }, alert.ackDeps)).toEqual({
      recorded: true,
    });
    expect(await alert.drain()).toEqual(["cancelled"]);
    expect(alert.of("escalation-cancelled").map(({ level }) => level)).toEqual([1]);
    expect(alert.of("alert-acknowledged")).toEqual([
      {
        type: "alert-acknowledged",
        account: "east",
        alertId: alert.alert.alertId,
        serialno: alert.key.serialno.toString(),
        rule: "crash",
        deviceid: alert.alert.deviceid,
        at: new Date(at).toISOString(),
        tokenId: "tok-1",
      },
    ]);
    expect(await escalationsSent(0)).toEqual([]);
  });

  it("between levels stops the levels not sent yet", async () => {
    const alert = await firedAlert(harness, ruleWith({ after: "10m", levels: 3 }));
    const first = alert.queue.next() as EscalationJob;
    expect(await runEscalation(first, alert.deps)).toBe("escalated");
    await acknowledge(alert.alert, { by: "Grace", atMs: alert.clock.nowMs + 1000 }, alert.ackDeps);
    expect(await alert.drain()).toEqual(["cancelled"]);
    expect(alert.of("alert-escalated").map(({ level }) => level)).toEqual([1]);
    expect((await escalationsSent(1)).map(({ level }) => level)).toEqual([1]);
    expect(await harness.escalations.get(alert.key)).toMatchObject({
      escalatedLevels: 1,
      escalationsSent: 1,
    });
  });

  it("twice records the first, tells the second who came first, and observes one", async () => {
    const alert = await firedAlert(harness, twoLevels);
    const first = {
      by: "Margaret",
      note: "driver called, all fine",
      tokenId: "tok-a",
      atMs: FIRED_AT_MS + 1000,
    };
    const [one, two] = await Promise.all([
      acknowledge(alert.alert, first, alert.ackDeps),
      acknowledge(alert.alert, { by: "Katherine", atMs: FIRED_AT_MS + 1000 }, alert.ackDeps).then(
        (outcome) => outcome,
      ),
    ]);
    const outcomes = [one, two];
    expect(outcomes.filter((outcome) => outcome?.recorded)).toHaveLength(1);
    const winner = (await harness.escalations.get(alert.key))?.acknowledgement;
    expect(outcomes.find((outcome) => !outcome?.recorded)).toEqual({ recorded: false, existing: winner });
    // Sequentially, the first is the one kept.
    const later = await firedAlert(harness, twoLevels);
    await acknowledge(later.alert, first, later.ackDeps);
    expect(
      await acknowledge(later.alert, { by: "Katherine", atMs: FIRED_AT_MS + 2000 }, later.ackDeps),
    ).toEqual({
      recorded: false,
      existing: first,
    });
    expect(later.of("alert-acknowledged")).toHaveLength(1);
    // Names and notes are personal data: the observation, which is logged, carries ids only.
    expect(JSON.stringify(later.of("alert-acknowledged"))).not.toMatch(/Margaret|Katherine|driver called/);
  });

  it("of an alert that does not exist, or without a name, is refused", async () => {
    const alert = await firedAlert(harness, twoLevels);
    await expect(
      acknowledge({ ...alert.alert, serialno: 1n }, { by: "Ada", atMs: FIRED_AT_MS }, alert.ackDeps),
    ).rejects.toThrow(/no alert record/);
    await expect(acknowledge(alert.alert, { by: "  ", atMs: FIRED_AT_MS }, alert.ackDeps)).rejects.toThrow(
      /must not be empty/,
    );
  });
});

describe("the policy", () => {
  it("on the record wins over the rule as changed after the alert fired", async () => {
    const before = await firedAlert(harness, twoLevels);
    // The rule now escalates once, after an hour: the alert already out keeps its own policy.
    const after = await firedAlert(harness, ruleWith({ after: "1h", levels: 1 }));
    expect(await harness.escalations.get(before.key)).toMatchObject({
      escalation: { afterSeconds: 600, levels: 2 },
    });
    expect(await before.drain()).toEqual(["escalated", "escalated"]);
    expect(before.clock.nowMs).toBe(FIRED_AT_MS + minutes(20));
    expect(await after.drain()).toContain("escalated");
    expect(after.clock.nowMs).toBe(FIRED_AT_MS + minutes(60));
    expect(await escalationsSent(3)).toHaveLength(3);
  });
});
