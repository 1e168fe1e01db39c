import { describe, expect, it } from "vitest";
import { roleAtLeast } from "./roles";

describe("roles", () => {
  it("accepts the needed role and any above it, nothing below", () => {
    expect(roleAtLeast("admin", "admin")).toBe(true);
    expect(roleAtLeast("owner", "admin")).toBe(true);
    expect(roleAtLeast("member", "admin")).toBe(false);
    expect(roleAtLeast("viewer", "member")).toBe(false);
    expect(roleAtLeast("viewer", "viewer")).toBe(true);
  });
});
