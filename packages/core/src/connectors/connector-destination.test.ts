import { describe, expect, it } from "vitest";
import { destinationChanges } from "./connector-destination";
import { parseConnectorDefinition } from "./definition";

const http = (extra: Record<string, unknown> = {}) =>
  parseConnectorDefinition({
    id: "crm",
    name: "CRM",
    transport: "http",
    url: "https://mcp.crm.example/mcp",
    auth: "bearer",
    ...extra,
  });
const stdio = (extra: Record<string, unknown> = {}) =>
  parseConnectorDefinition({
    id: "files",
    name: "Files",
    transport: "stdio",
    command: "/opt/connectors/server",
    args: ["--root", "/srv"],
    env: { A: "1", B: "2" },
    credential_env: "FILES_TOKEN",
    ...extra,
  });

describe("destinationChanges", () => {
  it("names nothing when only what does not move the credential changes", () => {
    expect(
      destinationChanges(
        http(),
        http({
          name: "Other",
          lanes: ["*"],
          enabled: false,
          initial_tools: ["x"],
          auth: "oauth",
          credential_mode: "member",
        }),
      ),
    ).toEqual([]);
    expect(
      destinationChanges(
        stdio(),
        stdio({ env: { B: "2", A: "1" }, description: "x", network: false }),
      ),
    ).toEqual([]);
    expect(destinationChanges(http({ url: "HTTPS://MCP.crm.example/mcp" }), http())).toEqual([]);
    expect(destinationChanges(http({ headers: {} }), http())).toEqual([]);
  });

  it("names each field that moves it", () => {
    expect(destinationChanges(http(), http({ url: "https://elsewhere.example/mcp" }))).toEqual([
      "url",
    ]);
    expect(destinationChanges(http(), http({ headers: { "X-Tenant": "other" } }))).toEqual([
      "headers",
    ]);
    expect(destinationChanges(stdio(), stdio({ command: "/opt/connectors/other" }))).toEqual([
      "command",
    ]);
    expect(
      destinationChanges(
        stdio(),
        stdio({ args: ["--root", "/srv", "--upstream", "https://x.example"] }),
      ),
    ).toEqual(["args"]);
    expect(
      destinationChanges(stdio(), stdio({ env: { A: "1", B: "2", API_URL: "https://x.example" } })),
    ).toEqual(["env"]);
    expect(destinationChanges(stdio(), stdio({ credential_env: "OTHER_TOKEN" }))).toEqual([
      "credential_env",
    ]);
    expect(destinationChanges(stdio(), http())).toEqual([
      "transport",
      "url",
      "command",
      "args",
      "env",
      "credential_env",
    ]);
  });
});
