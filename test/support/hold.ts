/** A promise and what settles it. */
export function signal() {
  let fire: () => void = () => undefined;
  const fired = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { fire, fired };
}

/**
 * A checkpoint (a poll's `checkpoint` seam) that holds the first arrival at `step` until released,
 * as a starved process or a slow call would: `arrived` settles when it is held there.
 */
export function holdAt<Step extends string>(step: Step) {
  const arrival = signal();
  const release = signal();
  let held = false;
  const checkpoint = async (at: Step) => {
    if (at !== step || held) return;
    held = true;
    arrival.fire();
    await release.fired;
  };
  return { checkpoint, arrived: arrival.fired, release: release.fire };
}
