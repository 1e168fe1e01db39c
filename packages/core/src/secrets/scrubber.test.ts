import { expect, it } from "vitest";
import { Scrubber } from "./scrubber";

const secret = "tok-0123456789abcdef";

it("replaces a secret and its common encodings", () => {
  const s = new Scrubber().add(secret);
  const text = `a ${secret} b ${Buffer.from(secret).toString("base64")} c ${encodeURIComponent(secret)}`;
  expect(s.scrub(text)).toBe("a [REDACTED] b [REDACTED] c [REDACTED]");
});

it("redacts the start of a secret left at the end of truncated text", () => {
  const s = new Scrubber().add(secret);
  expect(s.scrubTruncated(`output ... ${secret.slice(0, 9)}`)).toBe("output ... [REDACTED]");
  expect(s.scrubTruncated("output ... tok")).toBe("output ... tok"); // 3 characters prove nothing
  expect(s.scrubTruncated(`whole ${secret} end`)).toBe("whole [REDACTED] end");
});
