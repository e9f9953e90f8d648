/**
 * The evidence benchmark's baseline, in a process of its own: the same clip downloaded by the
 * client and thrown away. `tsx raw-download.ts <baseUrl> <deviceid> <start ISO> <minutes>`; the last
 * line printed is JSON with the bytes read and the seconds taken.
 */
import { DeviceCloudClient } from "@fleet-alerts/core/devicecloud";

const [baseUrl, deviceid, start, minutes] = process.argv.slice(2) as [string, string, string, string];
const client = new DeviceCloudClient({ baseUrl, credentials: { username: "demo", password: "demo" } });
const started = performance.now();
const download = await client.downloadPlayback({
  deviceid,
  channel: 1,
  start: new Date(start),
  durationMinutes: Number(minutes),
});
let bytes = 0;
for await (const chunk of download.body) bytes += (chunk as Buffer).length;
console.log(JSON.stringify({ bytes, seconds: (performance.now() - started) / 1000 }));
