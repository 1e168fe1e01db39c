import { describe, expect, it } from "vitest";
import { checkVariable } from "./variable-rules";

const refused = (input: Parameters<typeof checkVariable>[0]) => {
  try {
    checkVariable(input);
  } catch (e) {
    return e as { code: string; location?: { path?: string } };
  }
  return undefined;
};

describe("variable rules", () => {
  it("accepts environment variable names and a secret long enough to redact", () => {
    expect(refused({ name: "API_TOKEN_2", value: "x", secret: false })).toBeUndefined();
    expect(
      refused({ name: "_KEY", value: "long-enough", secret: true, lanes: ["default"] }),
    ).toBeUndefined();
  });

  it("refuses a bad name, a value over 64 KiB, a short secret and lanes on a plain variable, saying where", () => {
    expect(refused({ name: "2FAST", value: "x", secret: false })).toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
      location: { path: "name" },
    });
    expect(refused({ name: "A-B", value: "x", secret: false })).toMatchObject({
      location: { path: "name" },
    });
    expect(refused({ name: "BIG", value: "x".repeat(64 * 1024 + 1), secret: false })).toMatchObject(
      { location: { path: "value" } },
    );
    expect(refused({ name: "SHORT", value: "short", secret: true })).toMatchObject({
      code: "USER.SECRET_TOO_SHORT",
    });
    expect(refused({ name: "PLAIN", value: "x", secret: false, lanes: ["default"] })).toMatchObject(
      { location: { path: "lanes" } },
    );
  });
});
