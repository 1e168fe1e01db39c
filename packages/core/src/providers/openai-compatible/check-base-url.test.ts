import { describe, expect, it } from "vitest";
import { checkBaseUrl } from "./check-base-url";

const ALLOWED = [
  "https://api.example.com/v1",
  "http://127.0.0.1:11434/v1",
  "https://models.example.org",
];

const refusal = (baseUrl: unknown, allowed: string[] = ALLOWED) => {
  const r = checkBaseUrl(baseUrl, allowed);
  if (r.ok) throw new Error(`expected ${String(baseUrl)} to be refused, got ${r.url}`);
  expect(r.error.code).toBe("USER.PROVIDER.ENDPOINT_NOT_ALLOWED");
  expect(r.error.location).toEqual({ path: "options.base_url" });
  return r.error.message;
};

const accepted = (baseUrl: string, allowed: string[] = ALLOWED) => {
  const r = checkBaseUrl(baseUrl, allowed);
  if (!r.ok) throw new Error(`expected ${baseUrl} to be allowed: ${r.error.message}`);
  return r.url;
};

describe("checkBaseUrl", () => {
  it("accepts an allowed endpoint and the paths below it, normalised", () => {
    expect(accepted("https://api.example.com/v1")).toBe("https://api.example.com/v1");
    expect(accepted("https://api.example.com/v1/")).toBe("https://api.example.com/v1");
    expect(accepted("https://API.Example.COM:443/v1")).toBe("https://api.example.com/v1");
    expect(accepted("https://api.example.com./v1")).toBe("https://api.example.com/v1");
    expect(accepted("  https://api.example.com/v1/beta ")).toBe("https://api.example.com/v1/beta");
    expect(accepted("https://api.example.com/v1/./x/../")).toBe("https://api.example.com/v1");
    expect(accepted("https://models.example.org/anything/v1")).toBe(
      "https://models.example.org/anything/v1",
    );
    // An allowed entry spelt differently matches the same endpoint.
    expect(accepted("https://api.example.com/v1", ["HTTPS://api.example.com.:443/v1/"])).toBe(
      "https://api.example.com/v1",
    );
  });

  it("accepts plain http on loopback, in any spelling of 127.0.0.1", () => {
    expect(accepted("http://127.0.0.1:11434/v1")).toBe("http://127.0.0.1:11434/v1");
    expect(accepted("http://0x7f.0.0.1:11434/v1")).toBe("http://127.0.0.1:11434/v1");
    expect(accepted("http://2130706433:11434/v1")).toBe("http://127.0.0.1:11434/v1");
    expect(accepted("http://[::1]:8000/v1", ["http://[::1]:8000/v1"])).toBe("http://[::1]:8000/v1");
    expect(accepted("http://localhost.:8000/v1", ["http://localhost:8000"])).toBe(
      "http://localhost:8000/v1",
    );
  });

  it("refuses user info, whatever it claims to be", () => {
    const message = refusal("http://allowed.example@evil");
    expect(message).toMatch(/user name or password/);
    expect(refusal("https://api.example.com@evil.example/v1")).toMatch(/user name or password/);
    expect(refusal("https://user:sk-secret-123@api.example.com/v1")).not.toContain("sk-secret-123");
  });

  it("refuses hosts that only start or end like an allowed one", () => {
    expect(refusal("http://127.0.0.1.evil.com:11434/v1")).toMatch(
      /plain http is allowed only on loopback/,
    );
    expect(refusal("https://127.0.0.1.evil.com:11434/v1")).toMatch(/not one of the team's allowed/);
    expect(refusal("https://api.example.com.evil.com/v1")).toMatch(/not one of/);
    expect(refusal("https://evilapi.example.com/v1")).toMatch(/not one of/);
    expect(refusal("https://api.example.com../v1")).toMatch(/no valid host name/);
  });

  it("refuses another port or scheme of an allowed host", () => {
    expect(refusal("https://api.example.com:8443/v1")).toMatch(/not one of/);
    expect(refusal("http://127.0.0.1:11435/v1")).toMatch(/not one of/);
    expect(refusal("https://127.0.0.1:11434/v1")).toMatch(/not one of/);
    expect(refusal("http://api.example.com/v1")).toMatch(/plain http is allowed only on loopback/);
    expect(refusal("ftp://api.example.com/v1")).toMatch(/must be an https URL/);
    expect(refusal("file:///etc/passwd")).toMatch(/must be an https URL/);
  });

  it("refuses paths beside or above the allowed prefix, traversal included", () => {
    expect(refusal("https://api.example.com/v10")).toMatch(/not one of/);
    expect(refusal("https://api.example.com/")).toMatch(/not one of/);
    expect(refusal("https://api.example.com/v1/../admin")).toMatch(
      /https:\/\/api\.example\.com\/admin is not/,
    );
    expect(refusal("https://api.example.com/v1/%2e%2e/admin")).toMatch(/not one of/);
    expect(refusal("https://api.example.com/v1/..%2fadmin")).toMatch(/percent-encoded/);
    expect(refusal("https://api.example.com/v1%2F..%2Fadmin")).toMatch(/percent-encoded/);
    expect(refusal("https://api.example.com/v1/%5c..%5cadmin")).toMatch(/percent-encoded/);
  });

  it("refuses a query or fragment, without repeating it", () => {
    const message = refusal("https://api.example.com/v1?key=sk-abcdef123");
    expect(message).toMatch(/query or a fragment/);
    expect(message).not.toContain("sk-abcdef123");
    expect(refusal("https://api.example.com/v1#x")).toMatch(/query or a fragment/);
  });

  it("refuses a missing or malformed URL and an empty list, saying which", () => {
    expect(refusal(undefined)).toMatch(/options.base_url is required/);
    expect(refusal(42)).toMatch(/options.base_url is required/);
    expect(refusal("api.example.com/v1")).toMatch(/not an absolute URL/);
    expect(refusal("https://api.example.com/v1", [])).toMatch(/allows no model endpoints/);
    // Entries that are not endpoints themselves never match anything.
    expect(
      refusal("https://api.example.com/v1", ["https://x@api.example.com/v1", "nonsense"]),
    ).toMatch(/allows no model endpoints/);
  });

  it("names the allowed endpoints in the refusal", () => {
    expect(refusal("https://other.example.com/v1")).toBe(
      "options.base_url https://other.example.com/v1 is not one of the team's allowed model endpoints " +
        "(https://api.example.com/v1, http://127.0.0.1:11434/v1, https://models.example.org/)",
    );
  });
});
