/**
 * Row ids made in the process, so inserting a row needs no answer back (step runs, tool
 * calls, spans).
 */
import { randomInt } from "node:crypto";

/**
 * Ids shaped as Prisma's `cuid()` makes them ('c', time, counter, process, random), made
 * in strictly rising order within a process (the time part never goes back, and steps on
 * when the counter wraps): rows that started in the same millisecond list in the order
 * they were reported.
 */
const COUNTER_SPAN = 36 ** 4;
let counter = 0;
let lastMs = 0;
const PROCESS = randomInt(COUNTER_SPAN).toString(36).padStart(4, "0");
/** A new row id, greater than every id made before it in this process. */
export const newRowId = () => {
  counter = (counter + 1) % COUNTER_SPAN;
  lastMs = Math.max(counter === 0 ? lastMs + 1 : lastMs, Date.now());
  return `c${lastMs.toString(36).padStart(8, "0")}${counter.toString(36).padStart(4, "0")}${PROCESS}${Math.random().toString(36).slice(2, 10).padEnd(8, "0")}`;
};
