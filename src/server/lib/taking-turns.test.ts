import { describe, expect, test } from "bun:test";
import { takingTurns } from "./taking-turns.ts";

describe("takingTurns", () => {
  test("each task starts once the one before has ended, in the order asked", async () => {
    const turn = takingTurns();
    const events: string[] = [];
    const task = (name: string, ms: number) => async () => {
      events.push(`${name} starts`);
      await Bun.sleep(ms);
      events.push(`${name} ends`);
      return name;
    };
    const answers = await Promise.all([turn(task("a", 30)), turn(task("b", 1)), turn(task("c", 10))]);
    expect(answers).toEqual(["a", "b", "c"]);
    expect(events).toEqual(["a starts", "a ends", "b starts", "b ends", "c starts", "c ends"]);
  });

  test("a failed task fails its own caller only; the next one still runs", async () => {
    const turn = takingTurns();
    const failed = turn(() => {
      throw new Error("no");
    });
    const next = turn(() => "yes");
    await expect(failed).rejects.toThrow("no");
    expect(await next).toBe("yes");
  });

  test("between two turns, work that arrived meanwhile runs first", async () => {
    const turn = takingTurns();
    const events: string[] = [];
    // Two costly tasks that hold the thread (as a synchronous database query does).
    const busy = (name: string) => () => {
      const until = performance.now() + 20;
      while (performance.now() < until) {}
      events.push(name);
    };
    const first = turn(busy("first"));
    const second = turn(busy("second"));
    // Something that arrives while the first runs, as a request for a cached page would.
    setTimeout(() => events.push("arrived"), 5);
    await Promise.all([first, second]);
    expect(events).toEqual(["first", "arrived", "second"]);
  });
});
