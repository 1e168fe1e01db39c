import { expect, it } from "vitest";
import {
  DUMMY_PASSWORD_HASH,
  hashPassword,
  needsRehash,
  verifyPasswordHash,
} from "./password-hash";

it("keeps the dummy hash at the current cost, so an unknown email costs a full check", () => {
  expect(needsRehash(DUMMY_PASSWORD_HASH)).toBe(false);
});

it("verifies a hash of any cost and asks for a rehash of one below the current cost", async () => {
  const cheap = await hashPassword("pässword-1", { logN: 10, r: 8, p: 1 });
  expect(cheap).toMatch(/^scrypt\$10\$8\$1\$/);
  expect(await verifyPasswordHash("pässword-1", cheap)).toBe(true);
  expect(await verifyPasswordHash("pässword-2", cheap)).toBe(false);
  expect(needsRehash(cheap)).toBe(true);
  expect(needsRehash("$2a$10$abcdefghijklmnopqrstuu5Tp1GJPAWnQbJL1yGYsYn9QDPbAFIVa")).toBe(true);
});

it("refuses a malformed stored hash instead of throwing", async () => {
  expect(await verifyPasswordHash("x", "scrypt$99$8$1$abc$def")).toBe(false);
  expect(await verifyPasswordHash("x", "plain")).toBe(false);
});
