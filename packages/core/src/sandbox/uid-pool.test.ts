import { expect, it } from "vitest";
import { AppError } from "../errors";
import { createUidPool } from "./uid-pool";

it("hands out each slot uid once until it is released", () => {
  const pool = createUidPool(60_000, 2);
  const a = pool.acquire();
  const b = pool.acquire();
  expect([a, b]).toEqual([60_000, 60_001]);
  expect(() => pool.acquire()).toThrow(AppError);
  pool.release(a);
  pool.release(a);
  expect(pool.inUse()).toBe(1);
  expect(pool.acquire()).toBe(a);
});

it("refuses system uids and empty ranges", () => {
  expect(() => createUidPool(0, 4)).toThrow(/invalid step uid range/);
  expect(() => createUidPool(60_000, 0)).toThrow(/invalid step uid range/);
});
