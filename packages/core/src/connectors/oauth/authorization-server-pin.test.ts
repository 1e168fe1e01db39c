import { describe, expect, it } from "vitest";
import { authorizationServerPin, pinDrift, pinFromMetadata } from "./authorization-server-pin";
import type { OAuthServerInfo } from "./oauth-types";

const server = (issuer: string, tokenEndpoint = `${issuer}/token`) =>
  ({
    serverUrl: "https://mcp.example.com/mcp",
    resource: "https://mcp.example.com/mcp",
    issuer,
    metadata: { issuer, token_endpoint: tokenEndpoint },
  }) as unknown as OAuthServerInfo;

describe("the authorization server a secret is pinned to", () => {
  const pin = authorizationServerPin(server("https://as.example.com"));

  it("reads back from a credential's metadata, and nothing from metadata without one", () => {
    expect(pinFromMetadata({ ...pin, scope: "x" })).toEqual(pin);
    for (const none of [null, {}, { issuer: "https://as.example.com" }, "text"])
      expect(pinFromMetadata(none)).toBeUndefined();
  });

  it("lets the same server through and names what moved otherwise", () => {
    expect(pinDrift(pin, server("https://as.example.com"))).toBeUndefined();
    expect(pinDrift(pin, server("https://evil.example.com"))).toContain("https://evil.example.com");
    expect(
      pinDrift(pin, server("https://as.example.com", "https://elsewhere.example.com/token")),
    ).toContain("token endpoint");
    expect(pinDrift(undefined, server("https://as.example.com"))).toContain("before");
  });
});
