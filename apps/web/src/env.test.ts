import { describe, expect, it } from "vitest";
import { webEnvSchema } from "./env";

const base = {
  DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db",
  REDIS_URL: "redis://127.0.0.1:6379",
  SWITCHYARD_MASTER_KEY: Buffer.alloc(32, 7).toString("base64"),
  SWITCHYARD_MASTER_KEY_ID: "k1",
  AUTH_SECRET: "x".repeat(40),
};

describe("the web app's environment", () => {
  it("takes an https OIDC issuer, or plain http on this machine only", () => {
    expect(
      webEnvSchema.safeParse({
        ...base,
        SWITCHYARD_OIDC_ISSUER: "https://idp.example.com/realms/acme",
      }).success,
    ).toBe(true);
    expect(
      webEnvSchema.safeParse({ ...base, SWITCHYARD_OIDC_ISSUER: "http://127.0.0.1:4010" }).success,
    ).toBe(true);
    expect(
      webEnvSchema.safeParse({ ...base, SWITCHYARD_OIDC_ISSUER: "http://localhost:4010/" }).success,
    ).toBe(true);
    const remote = webEnvSchema.safeParse({
      ...base,
      SWITCHYARD_OIDC_ISSUER: "http://idp.example.com",
    });
    expect(remote.success).toBe(false);
    expect(remote.error?.issues[0]?.path).toEqual(["SWITCHYARD_OIDC_ISSUER"]);
    expect(
      webEnvSchema.safeParse({ ...base, SWITCHYARD_OIDC_ISSUER: "http://localhost.evil.com" })
        .success,
    ).toBe(false);
  });

  it("takes an https URL with a path, or off, for SWITCHYARD_OAUTH_CLIENT_METADATA_URL, naming it otherwise", () => {
    const parse = (value: string) =>
      webEnvSchema.safeParse({
        ...base,
        AUTH_URL: "https://switchyard.example.com",
        SWITCHYARD_OAUTH_CLIENT_METADATA_URL: value,
      });
    for (const ok of ["", "off", "https://static.example.com/switchyard/client.json"])
      expect(parse(ok).success, ok).toBe(true);
    for (const bad of [
      "http://static.example.com/client.json",
      "https://static.example.com/",
      "https://static.example.com/client.json#me",
    ]) {
      const result = parse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(["SWITCHYARD_OAUTH_CLIENT_METADATA_URL"]);
    }
  });

  it("refuses SWITCHYARD_OAUTH_CLIENT_METADATA_URL without an https AUTH_URL (plain http only on this machine), naming it", () => {
    const url = "https://static.example.com/switchyard/client.json";
    const parse = (AUTH_URL: string | undefined) =>
      webEnvSchema.safeParse({
        ...base,
        ...(AUTH_URL === undefined ? {} : { AUTH_URL }),
        SWITCHYARD_OAUTH_CLIENT_METADATA_URL: url,
      });
    for (const ok of ["https://switchyard.example.com", "http://127.0.0.1:3000"])
      expect(parse(ok).success, ok).toBe(true);
    for (const bad of [undefined, "", "http://switchyard.example.com"]) {
      const result = parse(bad);
      expect(result.success, String(bad)).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(["SWITCHYARD_OAUTH_CLIENT_METADATA_URL"]);
      expect(result.error?.issues[0]?.message).toContain("AUTH_URL");
    }
    // Off, or unset, needs no address.
    for (const value of ["off", ""])
      expect(
        webEnvSchema.safeParse({ ...base, SWITCHYARD_OAUTH_CLIENT_METADATA_URL: value }).success,
      ).toBe(true);
  });

  it("reads SWITCHYARD_INSTANCE_ADMINS as lower-cased emails and refuses one that is not an email, naming it", () => {
    expect(
      webEnvSchema.parse({
        ...base,
        SWITCHYARD_INSTANCE_ADMINS: " Ops@Example.com,, lead@example.com ",
      }).SWITCHYARD_INSTANCE_ADMINS,
    ).toEqual(["ops@example.com", "lead@example.com"]);
    expect(webEnvSchema.parse(base).SWITCHYARD_INSTANCE_ADMINS).toEqual([]);
    const bad = webEnvSchema.safeParse({
      ...base,
      SWITCHYARD_INSTANCE_ADMINS: "ops@example.com,ops",
    });
    expect(bad.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      [
        "SWITCHYARD_INSTANCE_ADMINS",
        '"ops" is not an email address (a comma-separated list of emails)',
      ],
    ]);
  });
});
