import { describe, expect, it } from "vitest";
import { storableJson, storableText } from "./storable";

describe("storable text and JSON", () => {
  it("replaces U+0000 with U+FFFD in text and leaves other text alone", () => {
    expect(storableText("a\u0000b\u0000")).toBe("a\uFFFDb\uFFFD");
    expect(storableText("plain \\u0000 text")).toBe("plain \\u0000 text");
    expect(storableText(undefined)).toBeUndefined();
    expect(storableText(null)).toBeNull();
  });

  it("replaces U+0000 in every string and key of a JSON value, and only there", () => {
    const value = {
      "k\u0000": ["v\u0000", { deep: "x\\\u0000y" }],
      literal: "a backslash then u0000: \\u0000",
      n: 0,
      t: true,
      none: null,
    };
    expect(storableJson(value)).toEqual({
      "k\uFFFD": ["v\uFFFD", { deep: "x\\\uFFFDy" }],
      literal: "a backslash then u0000: \\u0000",
      n: 0,
      t: true,
      none: null,
    });
    const clean = { a: ["b"] };
    expect(storableJson(clean)).toBe(clean);
  });
});
