/**
 * Real-time driving of the virtual clock: with speed > 0, every tick advances the simulation by
 * the real time elapsed times the speed (virtual ms per real ms). `control.advance()` keeps
 * working alongside it.
 */
const INTERVAL_MS = 100;

/** Starts the timer; returns the function that stops it. */
export function startClockDriver(speed: number, advance: (virtualMs: number) => void): () => void {
  let last = performance.now();
  let fraction = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    const virtualMs = (now - last) * speed + fraction;
    last = now;
    const whole = Math.floor(virtualMs);
    fraction = virtualMs - whole;
    if (whole > 0) advance(whole);
  }, INTERVAL_MS);
  // The clock alone must not keep a process (a test run) alive.
  timer.unref();
  return () => clearInterval(timer);
}
