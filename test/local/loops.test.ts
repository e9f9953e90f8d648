import { describe, expect, it } from "vitest";
import { every, runLoops } from "../../packages/local/src/delivery.js";

describe("local loops", () => {
  it("stop at once, though a loop waits minutes between its steps (notices at --speed 1)", async () => {
    let steps = 0;
    const loops = runLoops([every(300_000, async () => void steps++)], (error) => {
      throw error;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const began = performance.now();
    await loops.stop();
    expect(performance.now() - began).toBeLessThan(1_000);
    expect(steps).toBe(1);
  });

  it("let a step in progress finish before stop resolves", async () => {
    let finished = false;
    const loops = runLoops(
      [
        every(10, async () => {
          await new Promise((resolve) => setTimeout(resolve, 200));
          finished = true;
        }),
      ],
      (error) => {
        throw error;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    await loops.stop();
    expect(finished).toBe(true);
  });

  it("report a failing step and try it again, until stopped", async () => {
    const errors: string[] = [];
    let attempts = 0;
    const loops = runLoops(
      [
        async () => {
          attempts++;
          throw new Error(`attempt ${attempts} failed`);
        },
      ],
      (error) => errors.push(error.message),
    );
    await new Promise((resolve) => setTimeout(resolve, 700));
    await loops.stop();
    expect(errors.slice(0, 2)).toEqual(["attempt 1 failed", "attempt 2 failed"]);
  });
});
