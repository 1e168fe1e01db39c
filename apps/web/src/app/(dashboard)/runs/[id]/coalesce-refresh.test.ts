import { expect, it } from "vitest";
import { coalesceRefresh } from "./coalesce-refresh";

it("never refreshes twice at once, and refreshes once more after calls that came meanwhile", async () => {
  let running = 0;
  let most = 0;
  let runs = 0;
  const gates: (() => void)[] = [];
  const refresh = coalesceRefresh(async () => {
    running++;
    most = Math.max(most, running);
    runs++;
    await new Promise<void>((resolve) => gates.push(resolve));
    running--;
  });
  refresh();
  refresh();
  refresh();
  refresh();
  expect(runs).toBe(1);
  gates.shift()!();
  await new Promise((r) => setTimeout(r, 0));
  // The three calls made while the first ran make one more run, which sees all they announced.
  expect(runs).toBe(2);
  gates.shift()!();
  await new Promise((r) => setTimeout(r, 0));
  expect(runs).toBe(2);
  expect(most).toBe(1);
  refresh();
  expect(runs).toBe(3);
  gates.shift()!();
});

it("keeps going after a refresh that failed", async () => {
  let runs = 0;
  const refresh = coalesceRefresh(() => {
    runs++;
    return runs === 1 ? Promise.reject(new Error("offline")) : Promise.resolve();
  });
  refresh();
  await new Promise((r) => setTimeout(r, 0));
  refresh();
  await new Promise((r) => setTimeout(r, 0));
  expect(runs).toBe(2);
});
