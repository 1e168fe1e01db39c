import { expect, it } from "vitest";
import { clientAddress } from "./client-address";

const xff = (value?: string) =>
  new Headers(value === undefined ? {} : { "x-forwarded-for": value });

it("takes the entry the nearest trusted proxy appended, ignoring what the client put before it", () => {
  expect(clientAddress(xff("10.0.0.5"), 0)).toBe("10.0.0.5");
  expect(clientAddress(xff("1.2.3.4, 203.0.113.7"), 1)).toBe("203.0.113.7");
  expect(clientAddress(xff("1.2.3.4, 203.0.113.7, 10.0.0.2"), 2)).toBe("203.0.113.7");
});

it("falls back to the first entry when there are fewer than the proxies, and to a fixed name without any", () => {
  expect(clientAddress(xff("203.0.113.7"), 3)).toBe("203.0.113.7");
  expect(clientAddress(xff(), 0)).toBe("unknown");
  expect(clientAddress(xff(" , "), 1)).toBe("unknown");
});
