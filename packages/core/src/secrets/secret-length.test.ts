import { expect, it } from "vitest";
import { surfaceOf } from "../errors/error-codes";
import { checkSecretLength, MIN_SECRET_LENGTH } from "./secret-length";

it("refuses a secret shorter than the minimum, saying the minimum and where", () => {
  expect(MIN_SECRET_LENGTH).toBe(8);
  let error: unknown;
  try {
    checkSecretLength("1000");
  } catch (e) {
    error = e;
  }
  expect(error).toMatchObject({ code: "USER.SECRET_TOO_SHORT", location: { path: "value" } });
  expect((error as Error).message).toContain("at least 8 characters");
  expect((error as Error).message).not.toContain("1000");
  expect(surfaceOf("USER.SECRET_TOO_SHORT")).toMatchObject({ http: 400, trpc: "BAD_REQUEST" });
  expect(() => checkSecretLength("ünïcöde")).toThrow(/this one has 7/);
  expect(() => checkSecretLength("12345678")).not.toThrow();
});
