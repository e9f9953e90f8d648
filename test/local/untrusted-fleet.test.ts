import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import type { ObservationOf } from "@fleet-alerts/core";
import { ShareStore } from "@fleet-alerts/core/share";
import type { DeviceIdentity, Simulator } from "@fleet-alerts/simulator";
import { describe, expect, it } from "vitest";
import { humanView } from "../../packages/local/src/human-view.js";
import { startLocalPipeline } from "../../packages/local/src/pipeline.js";
import { emptyTotals, type LocalLine } from "../../packages/local/src/report.js";

// `npm start` with a fleet whose device cloud names its devices as a hostile service might: every
// alert goes out, the live view shows each name on its own line with its controls made visible, and
// the device called `..` gets its evidence, its incident page and a clip link that opens.
const IDENTITIES: DeviceIdentity[] = [
  { vehicleid: "TRK\uFFFE1", drivername: "Ada\uFFFFLovelace" },
  { vehicleid: "🚚 Truck", drivername: "\u001b[31mred\u0007\u0000\rFORGED LINE" },
  { deviceid: "..", vehicleid: " \t ", drivername: "<!channel> [Open](https://evil.example)" },
];

const ACTS_IN_A_TERMINAL = /[\p{Cc}\p{Zl}\p{Zp}\p{Bidi_Control}\p{Noncharacter_Code_Point}\p{Cs}]/u;

/** Waits on the wall clock until `found` holds, failing after `ms` (a loaded runner is slow). */
async function waitFor(found: () => boolean, ms: number): Promise<void> {
  for (const deadline = Date.now() + ms; !found(); await sleep(100))
    expect(Date.now()).toBeLessThan(deadline);
}

describe("the local mode with a hostile fleet", () => {
  it("sends every alert, shows every name safely, and serves the evidence of a device named `..`", async () => {
    const evidenceDir = await mkdtemp(join(tmpdir(), "fleet-alerts-hostile-"));
    const shown: LocalLine[] = [];
    const pipeline = await startLocalPipeline(
      {
        devices: 4,
        seed: 3,
        accounts: ["north"],
        speed: 60,
        pollEverySeconds: 0.5,
        evidenceDir,
        fleetTimeZone: "Europe/Berlin",
        identities: IDENTITIES,
      },
      (line) => shown.push(line),
    );
    try {
      const simulator = pipeline.simulators.get("north") as Simulator;
      const { control } = simulator;
      const devices = control.devices().slice(0, IDENTITIES.length);
      expect(devices.map((device) => device.deviceid)[2]).toBe("..");
      // After the first poll, which starts at the newest event and reads no history.
      await waitFor(() => shown.some((line) => line.type === "poll-summary"), 20_000);
      const nowMs = control.now().getTime();
      for (const device of devices)
        control.setRecording(device.deviceid, new Date(nowMs - 120_000), new Date(nowMs + 600_000), 1);
      const crashes = devices.map((device) =>
        control.injectEvent({ appdevid: 16, deviceid: device.deviceid }),
      );
      const published = () =>
        shown.filter((line): line is ObservationOf<"alert-published"> => line.type === "alert-published");
      const dotDotAlert = `north:${crashes[2]?.serialno}:gsensor`;
      await waitFor(
        () =>
          crashes.every((crash) =>
            published().some((alert) => alert.serialno === crash.serialno.toString()),
          ) && shown.some((line) => line.type === "evidence-stored" && line.alertId === dotDotAlert),
        45_000,
      );

      // Each went out once, its body carrying the names as sent; nothing failed or was set aside.
      for (const [index, crash] of crashes.entries()) {
        const alerts = published().filter((alert) => alert.serialno === crash.serialno.toString());
        expect(alerts).toHaveLength(1);
        expect(alerts[0]?.body).toMatchObject({
          deviceid: devices[index]?.deviceid,
          vehicleid: devices[index]?.vehicleid,
          drivername: devices[index]?.drivername,
        });
      }
      const failures = ["problem", "alert-failed", "record-set-aside", "evidence-failed"];
      expect(shown.filter((line) => failures.includes(line.type))).toEqual([]);

      // The live view (--verbose, the most it prints): no control character reaches the terminal,
      // and no name adds a line.
      const verbose = { verbose: true };
      for (const line of shown) {
        const printed = humanView(line, emptyTotals(), "12:00:00", verbose).print ?? "";
        expect([...printed].filter((char) => char !== "\n" && ACTS_IN_A_TERMINAL.test(char))).toEqual([]);
      }
      const redAlert = published().find((alert) => alert.serialno === crashes[1]?.serialno.toString());
      const redText = humanView(redAlert as LocalLine, emptyTotals(), "12:00:00", verbose).print ?? "";
      // Its own lines only: the alert; when, where and how fast; its route; its SMS and its link.
      expect(redText.split("\n").map((line) => line.trim().split(" ")[0])).toEqual([
        "12:00:00",
        expect.stringMatching(/^\d{4}-\d\d-\d\d$/),
        "north",
        "SMS:",
        "Link:",
      ]);
      expect(redText.split("\n")[0]).toContain("(\\x1b[31mred\\x07\\x00\\x0dFORGED LINE)");

      // The incident page of the `..` device: headed by its device id (its vehicle name is blank),
      // and its clip link reaches the clip.
      const started = shown.find((line) => line.type === "started");
      if (started?.type !== "started") throw new Error("not started");
      const { documents } = pipeline.emulators.clients;
      const share = await new ShareStore({ documents, tableName: pipeline.emulators.tableName }).create(
        {
          alertId: dotDotAlert,
          account: "north",
          serialno: crashes[2]?.serialno as bigint,
          ruleId: "gsensor",
          scope: "view",
          createdBy: "test",
          expiresAtMs: control.now().getTime() + 86_400_000,
        },
        control.now().getTime(),
      );
      const page = await fetch(`${started.incident}/i/${share.token}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toMatch(/<h1>GSensor · \.\.<\/h1>/);
      expect(html).not.toContain("<!channel>");
      const clip = await fetch(`${started.incident}/i/${share.token}/clips/0`, { redirect: "manual" });
      expect(clip.status).toBe(302);
      const location = clip.headers.get("location") as string;
      expect(new URL(location).pathname).toContain("/evidence/~../");
      const video = await fetch(location);
      expect(video.status).toBe(200);
      expect(
        Buffer.from(await video.arrayBuffer())
          .subarray(4, 8)
          .toString(),
      ).toBe("ftyp");
    } finally {
      await pipeline.stop();
    }
  }, 90_000);
});
