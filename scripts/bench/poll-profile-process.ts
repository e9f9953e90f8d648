/**
 * poll-profile.ts's measurement in a process of its own: the throttle charges every callback of a
 * poll, a collection of the heap among them, and the bench's own process holds the heap of the
 * sections before (in it, an alerting poll once measured 9.9 s against 1.3 to 1.7 s alone).
 * Given `{ memoryMb, deviceCloudRoundTripMs }` as JSON in argv, it sends its PollProfile over IPC.
 */
import { measurePollProfile } from "./poll-profile.js";

const { memoryMb, deviceCloudRoundTripMs } = JSON.parse(process.argv[2] ?? "{}") as {
  memoryMb: number;
  deviceCloudRoundTripMs: number;
};
const profile = await measurePollProfile(memoryMb, deviceCloudRoundTripMs);
process.send?.(profile, () => process.exit(0));
