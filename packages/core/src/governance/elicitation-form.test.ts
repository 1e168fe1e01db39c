import { describe, expect, it } from "vitest";
import { type AppError } from "../errors/app-error";
import { acceptedContent, elicitationFields } from "./elicitation-form";

/** The form the conformance suite's SEP-1034 server asks, every field with a default. */
const DEFAULTS_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", description: "User name", default: "John Doe" },
    age: { type: "integer", default: 30 },
    score: { type: "number", default: 95.5 },
    status: { type: "string", enum: ["active", "inactive", "pending"], default: "active" },
    verified: { type: "boolean", default: true },
  },
  required: [],
};

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as AppError;
  }
  throw new Error("expected a refusal");
};

describe("elicitation form", () => {
  it("reads each kind of field the spec allows", () => {
    const fields = elicitationFields({
      ...DEFAULTS_SCHEMA,
      properties: {
        ...DEFAULTS_SCHEMA.properties,
        colour: {
          type: "string",
          oneOf: [
            { const: "r", title: "Red" },
            { const: "g", title: "Green" },
          ],
        },
        tags: { type: "array", items: { type: "string", enum: ["a", "b"] }, maxItems: 2 },
      },
      required: ["name"],
    });
    expect(fields.map((f) => [f.name, f.type, f.required])).toEqual([
      ["name", "string", true],
      ["age", "integer", false],
      ["score", "number", false],
      ["status", "enum", false],
      ["verified", "boolean", false],
      ["colour", "enum", false],
      ["tags", "multi", false],
    ]);
    expect(fields[5]).toMatchObject({ options: [{ value: "r", title: "Red" }, { value: "g" }] });
  });

  it("applies every default to a form accepted with nothing filled in", () => {
    expect(acceptedContent(elicitationFields(DEFAULTS_SCHEMA), {})).toEqual({
      name: "John Doe",
      age: 30,
      score: 95.5,
      status: "active",
      verified: true,
    });
  });

  it("keeps what the person gave over the defaults", () => {
    const content = acceptedContent(elicitationFields(DEFAULTS_SCHEMA), {
      name: "Ada",
      age: "41",
    });
    expect(content).toMatchObject({ name: "Ada", age: 41, status: "active" });
  });

  it("refuses a value that does not fit, naming the field", () => {
    const fields = elicitationFields(DEFAULTS_SCHEMA);
    const wrongEnum = refusal(() => acceptedContent(fields, { status: "gone" }));
    expect(wrongEnum.code).toBe("USER.ELICITATION.INVALID_ANSWER");
    expect(wrongEnum.location).toEqual({ path: "content.status" });
    expect(wrongEnum.message).toContain("active, inactive, pending");
    expect(refusal(() => acceptedContent(fields, { age: 2.5 })).location).toEqual({
      path: "content.age",
    });
    expect(refusal(() => acceptedContent(fields, { nickname: "x" })).message).toContain(
      "no such field",
    );
  });

  it("refuses a required field left empty without a default", () => {
    const fields = elicitationFields({
      type: "object",
      properties: { reason: { type: "string", minLength: 3 } },
      required: ["reason"],
    });
    expect(refusal(() => acceptedContent(fields, {})).message).toBe("reason: is required");
    expect(refusal(() => acceptedContent(fields, { reason: "no" })).message).toContain(
      "at least 3",
    );
  });

  it("refuses a schema outside the spec's subset", () => {
    const nested = refusal(() =>
      elicitationFields({ type: "object", properties: { address: { type: "object" } } }),
    );
    expect(nested.code).toBe("USER.ELICITATION.INVALID_SCHEMA");
    expect(nested.location).toEqual({ path: "requestedSchema.properties.address.type" });
  });
});
