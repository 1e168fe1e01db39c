import { describe, expect, it } from "vitest";
import { checkModelEndpoint, checkModelKey } from "./model-access-input";
import {
  DEFAULT_MODEL_ENDPOINTS,
  MODEL_VENDORS,
  isModelVendor,
  modelEndpointOf,
} from "./model-vendors";

const refused = (raw: string, field = "endpoint") => {
  try {
    checkModelEndpoint(raw, field);
  } catch (error) {
    expect(error).toMatchObject({
      code: "USER.INPUT.VALIDATION_FAILED",
      location: { path: field },
    });
    return (error as Error).message;
  }
  throw new Error(`expected ${raw} to be refused`);
};

describe("model vendors", () => {
  it("lists the four vendors, with each first-party one's default endpoint", () => {
    expect(MODEL_VENDORS).toEqual(["anthropic", "openai", "gemini", "openai_compatible"]);
    expect(DEFAULT_MODEL_ENDPOINTS).toEqual({
      anthropic: "https://api.anthropic.com",
      openai: "https://api.openai.com/v1",
      gemini: "https://generativelanguage.googleapis.com",
    });
    expect(isModelVendor("gemini")).toBe(true);
    expect(isModelVendor("Gemini")).toBe(false);
    expect(isModelVendor("toString")).toBe(false);
  });

  it("reaches the team's endpoint, else the vendor's default; openai_compatible has none of its own", () => {
    expect(modelEndpointOf("anthropic", null)).toBe("https://api.anthropic.com");
    expect(modelEndpointOf("openai", "https://gw.example.com/openai")).toBe(
      "https://gw.example.com/openai",
    );
    expect(modelEndpointOf("openai_compatible", null)).toBeNull();
  });
});

describe("checkModelEndpoint", () => {
  it("accepts https anywhere and http on loopback, normalised without a trailing slash", () => {
    expect(checkModelEndpoint(" https://API.Example.com:443/v1/ ", "endpoint")).toBe(
      "https://api.example.com/v1",
    );
    expect(checkModelEndpoint("https://gw.example.com.", "endpoint")).toBe(
      "https://gw.example.com",
    );
    expect(checkModelEndpoint("http://127.0.0.1:11434/v1", "endpoint")).toBe(
      "http://127.0.0.1:11434/v1",
    );
    expect(checkModelEndpoint("http://localhost:8080", "endpoint")).toBe("http://localhost:8080");
  });

  it("refuses what is not an http(s) URL, credentials, a query or a fragment, naming the field", () => {
    expect(refused("api.example.com")).toMatch(/endpoint is not an absolute URL/);
    expect(refused("ftp://files.example.com", "allowedEndpoints.2")).toMatch(
      /^allowedEndpoints\.2 must be an http or https URL/,
    );
    expect(refused("https://user:hunter2@api.example.com/v1")).not.toContain("hunter2");
    expect(refused("https://api.example.com/v1?key=sk-123")).not.toContain("sk-123");
    expect(refused("https://api.example.com/v1#top")).toMatch(/query or a fragment/);
    expect(refused("https://api.example.com/v1%2F..%2Fadmin")).toMatch(/percent-encoded/);
    expect(refused("http://models.example.com/v1")).toMatch(/plain http only on loopback/);
    expect(refused("x".repeat(3000))).toMatch(/too long/);
  });
});

describe("checkModelKey", () => {
  it("keeps a key as typed less surrounding blanks, with its last four characters as the hint", () => {
    expect(checkModelKey("  sk-ant-api03-abcdWXYZ \n")).toEqual({
      key: "sk-ant-api03-abcdWXYZ",
      hint: "WXYZ",
    });
  });

  it("refuses an empty, short or multi-line key without repeating it", () => {
    for (const bad of ["", "   ", "short", "sk-live-one\nsk-live-two", "sk live with spaces"]) {
      expect(() => checkModelKey(bad)).toThrow(
        expect.objectContaining({
          code: "USER.INPUT.VALIDATION_FAILED",
          location: { path: "apiKey" },
        }),
      );
    }
    try {
      checkModelKey("sk-live-one\nsk-live-two");
    } catch (error) {
      expect((error as Error).message).not.toContain("sk-live");
    }
  });
});
