import { describe, expect, it } from "vitest";
import {
  clientMetadataUrlFor,
  isClientIdUrl,
  metadataDocumentClient,
} from "./client-metadata-document";
import type { OAuthServerInfo } from "./oauth-types";

const server = (metadata: Record<string, unknown>): OAuthServerInfo => ({
  serverUrl: "https://mcp.example.com/mcp",
  resource: "https://mcp.example.com/mcp",
  issuer: "https://auth.example.com",
  metadata: {
    issuer: "https://auth.example.com",
    authorization_endpoint: "https://auth.example.com/authorize",
    token_endpoint: "https://auth.example.com/token",
    response_types_supported: ["code"],
    ...metadata,
  },
});

const DOC = "https://sy.example.com/api/connectors/oauth/client-metadata.json";

describe("isClientIdUrl", () => {
  it.each([
    [DOC, true],
    ["https://sy.example.com/", false],
    ["https://sy.example.com", false],
    ["http://sy.example.com/doc.json", false],
    ["https://user@sy.example.com/doc.json", false],
    ["https://sy.example.com/doc.json#x", false],
    ["https://sy.example.com/a/../doc.json", false],
    ["https://sy.example.com/a/%2E%2E/doc.json", false],
    ["not a url", false],
  ])("%s: %s", (url, ok) => expect(isClientIdUrl(url)).toBe(ok));
});

describe("clientMetadataUrlFor", () => {
  it("is the route under an https dashboard, none under an http one", () => {
    expect(clientMetadataUrlFor({ publicUrl: "https://sy.example.com/x", configured: "" })).toBe(
      DOC,
    );
    expect(
      clientMetadataUrlFor({ publicUrl: "http://sy.example.com", configured: undefined }),
    ).toBeUndefined();
    expect(clientMetadataUrlFor({ publicUrl: undefined, configured: undefined })).toBeUndefined();
  });

  it("takes the operator's URL, or none when off", () => {
    const elsewhere = "https://static.example.com/switchyard/client.json";
    expect(clientMetadataUrlFor({ publicUrl: "http://10.0.0.5", configured: elsewhere })).toBe(
      elsewhere,
    );
    expect(
      clientMetadataUrlFor({ publicUrl: "https://sy.example.com", configured: "off" }),
    ).toBeUndefined();
  });
});

describe("metadataDocumentClient", () => {
  it("is a public client with the document's URL where the server lists support", () => {
    expect(
      metadataDocumentClient(server({ client_id_metadata_document_supported: true }), DOC),
    ).toEqual({
      issuer: "https://auth.example.com",
      clientId: DOC,
      tokenEndpointAuthMethod: "none",
    });
  });

  it("is none where the server does not list support, takes only secrets, or there is no document", () => {
    expect(metadataDocumentClient(server({}), DOC)).toBeUndefined();
    expect(
      metadataDocumentClient(server({ client_id_metadata_document_supported: false }), DOC),
    ).toBeUndefined();
    expect(
      metadataDocumentClient(
        server({
          client_id_metadata_document_supported: true,
          token_endpoint_auth_methods_supported: ["client_secret_basic"],
        }),
        DOC,
      ),
    ).toBeUndefined();
    expect(
      metadataDocumentClient(server({ client_id_metadata_document_supported: true }), undefined),
    ).toBeUndefined();
  });
});
