import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import {
  MAX_CONNECTORS_PER_TEAM,
  needsCredential,
  parseConnectorDefinition,
  toConnectorSpec,
} from "./definition";

const GITHUB_TOKEN = "ghp_1a2B3c4D5e6F7g8H9i0JkLmNoPqRsTuVwXyZ";

const stdio = (extra: Record<string, unknown> = {}) => ({
  id: "files",
  name: "Files",
  transport: "stdio",
  command: "npx",
  args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv/data"],
  ...extra,
});

const http = (extra: Record<string, unknown> = {}) => ({
  id: "tracker",
  name: "Tracker",
  transport: "http",
  url: "https://mcp.tracker.example/mcp",
  auth: "bearer",
  ...extra,
});

/** The AppError a definition is refused with. */
const refusal = (raw: unknown, file?: string): AppError => {
  try {
    parseConnectorDefinition(raw, file === undefined ? {} : { file });
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("the definition was accepted");
};

describe("parseConnectorDefinition: the schema", () => {
  it("fills the defaults of a team-authored stdio connector: operator only, enabled, no rules", () => {
    expect(parseConnectorDefinition(stdio())).toEqual({
      id: "files",
      name: "Files",
      description: "",
      transport: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv/data"],
      env: {},
      lanes: ["operator"],
      credential_mode: "team",
      initial_tools: [],
      enabled: true,
      tool_allow: {},
    });
  });

  it("keeps an http connector's url, auth, client id and non-secret headers", () => {
    const def = parseConnectorDefinition(
      http({
        auth: "oauth",
        oauth_client_id: "Iv1.8a61f9b3a7aba766",
        headers: { "X-MCP-Toolsets": "repos,issues" },
        lanes: ["default", "operator"],
      }),
    );
    expect(def).toMatchObject({
      transport: "http",
      url: "https://mcp.tracker.example/mcp",
      auth: "oauth",
      oauth_client_id: "Iv1.8a61f9b3a7aba766",
      headers: { "X-MCP-Toolsets": "repos,issues" },
      lanes: ["default", "operator"],
    });
  });

  it("takes a machine-to-machine connector of the team's account, with its client id and how it signs in", () => {
    const def = parseConnectorDefinition(
      http({
        auth: "client_credentials",
        oauth_client_id: "reporting-bot",
        oauth_client_auth: "private_key_jwt",
      }),
    );
    expect(def).toMatchObject({
      auth: "client_credentials",
      oauth_client_id: "reporting-bot",
      oauth_client_auth: "private_key_jwt",
      credential_mode: "team",
    });
    expect(needsCredential(def)).toBe(true);
  });

  it("keeps a stdio connector's own network setting, unset when it follows the steps'", () => {
    expect(
      parseConnectorDefinition(stdio()).transport === "stdio" &&
        "network" in parseConnectorDefinition(stdio()),
    ).toBe(false);
    expect(toConnectorSpec(parseConnectorDefinition(stdio({ network: false })))).toMatchObject({
      network: false,
    });
    expect(toConnectorSpec(parseConnectorDefinition(stdio({ network: true })))).toMatchObject({
      network: true,
    });
    expect(refusal(stdio({ network: "yes" }))).toMatchObject({
      code: "USER.CONNECTOR.INVALID",
      location: { path: "network" },
    });
    // An http connector is reached by the worker itself: no sandbox, no setting.
    expect(refusal(http({ network: false }))).toMatchObject({
      code: "USER.CONNECTOR.INVALID",
      location: { path: "network" },
    });
  });

  it("caps connectors per team at 64 for the database layer", () => {
    expect(MAX_CONNECTORS_PER_TEAM).toBe(64);
  });

  it.each([
    ["an id with capitals", stdio({ id: "Files" }), "id"],
    ["an id starting with a digit", stdio({ id: "1files" }), "id"],
    ["an id of 33 characters", stdio({ id: `a${"b".repeat(32)}` }), "id"],
    ["a name over 80 characters", stdio({ name: "n".repeat(81) }), "name"],
    ["an empty name", stdio({ name: " " }), "name"],
    ["a description over 500 characters", stdio({ description: "d".repeat(501) }), "description"],
    ["no transport", { id: "x", name: "X" }, "transport"],
    ["an unknown transport", stdio({ transport: "sse" }), "transport"],
    ["a misspelt field", stdio({ comand: "npx" }), "comand"],
    ["a field of the other transport", stdio({ url: "https://a.example" }), "url"],
    ["a command over 256 characters", stdio({ command: "c".repeat(257) }), "command"],
    ["an empty command", stdio({ command: "" }), "command"],
    ["33 arguments", stdio({ args: Array.from({ length: 33 }, (_, i) => `a${i}`) }), "args"],
    ["an argument over 512 characters", stdio({ args: ["-y", "pkg", "x".repeat(513)] }), "args[2]"],
    ["an environment name in lower case", stdio({ env: { foo: "1" } }), "env.foo"],
    ["an environment name with a dash", stdio({ env: { "MY-VAR": "1" } }), "env.MY-VAR"],
    [
      "33 environment variables",
      stdio({ env: Object.fromEntries(Array.from({ length: 33 }, (_, i) => [`V${i}`, "1"])) }),
      "env",
    ],
    [
      "a credential variable name in lower case",
      stdio({ credential_env: "token" }),
      "credential_env",
    ],
    [
      "the credential variable also set in env",
      stdio({ credential_env: "API_TOKEN", env: { API_TOKEN: "" } }),
      "env.API_TOKEN",
    ],
    ["no auth on http", http({ auth: undefined }), "auth"],
    ["an unknown auth", http({ auth: "basic" }), "auth"],
    ["a client id without oauth", http({ oauth_client_id: "abc" }), "oauth_client_id"],
    [
      "client credentials without a client id",
      http({ auth: "client_credentials" }),
      "oauth_client_id",
    ],
    [
      "client credentials with each member's account",
      http({ auth: "client_credentials", oauth_client_id: "svc", credential_mode: "member" }),
      "credential_mode",
    ],
    [
      "a client authentication without client credentials",
      http({ auth: "oauth", oauth_client_auth: "private_key_jwt" }),
      "oauth_client_auth",
    ],
    [
      "an unknown client authentication",
      http({ auth: "client_credentials", oauth_client_id: "svc", oauth_client_auth: "mtls" }),
      "oauth_client_auth",
    ],
    ["another scheme", http({ url: "ftp://mcp.tracker.example/" }), "url"],
    ["not a URL", http({ url: "mcp.tracker.example" }), "url"],
    ["a user name in the URL", http({ url: "https://bot@mcp.tracker.example/mcp" }), "url"],
    ["a header name with a space", http({ headers: { "X Team": "a" } }), "headers.X Team"],
    ["no lane", stdio({ lanes: [] }), "lanes"],
    ["every lane and one more", stdio({ lanes: ["*", "default"] }), "lanes"],
    ["a lane twice", stdio({ lanes: ["default", "default"] }), "lanes[1]"],
    ["a lane with a space", stdio({ lanes: ["my lane"] }), "lanes[0]"],
    ["a tool name with a space", stdio({ initial_tools: ["read file"] }), "initial_tools[0]"],
    ["enabled as a string", stdio({ enabled: "yes" }), "enabled"],
    [
      "a rule for a lane the connector does not reach",
      stdio({ lanes: ["operator"], tool_allow: { default: { deny: ["delete_*"] } } }),
      "tool_allow.default",
    ],
    [
      "a pattern with a character tools never have",
      stdio({ tool_allow: { "*": { deny: ["delete issue"] } } }),
      "tool_allow.*.deny[0]",
    ],
    ["an empty allow list", stdio({ tool_allow: { "*": { allow: [] } } }), "tool_allow.*.allow"],
    ["a misspelt rule", stdio({ tool_allow: { "*": { denied: ["x"] } } }), "tool_allow.*.denied"],
    ["an unknown credential mode", stdio({ credential_mode: "shared" }), "credential_mode"],
  ])("refuses %s, naming %s", (_what, raw, path) => {
    const error = refusal(raw);
    expect(error.code).toBe("USER.CONNECTOR.INVALID");
    expect(error.location?.path).toBe(path);
    expect(error.userMessage).toContain(path);
  });

  it.each([
    "https://mcp.tracker.example/mcp",
    "http://127.0.0.1:8931/mcp",
    "http://localhost:3000/mcp",
    "http://[::1]:3000/mcp",
  ])("accepts the URL %s", (url) => {
    expect(parseConnectorDefinition(http({ url }))).toMatchObject({ url });
  });

  it("refuses what is not an object, and names the file it came from", () => {
    const error = refusal("npx server", "connectors/files.json");
    expect(error.code).toBe("USER.CONNECTOR.INVALID");
    expect(error.location).toEqual({ file: "connectors/files.json", path: "(root)" });
    expect(error.userMessage).toMatch(/a connector definition is an object/);
  });

  it("lists every problem in the details, the first one in the location", () => {
    const error = refusal(stdio({ id: "Bad", args: ["x".repeat(600)] }));
    expect(error.location?.path).toBe("id");
    expect(error.details).toEqual({
      issues: [
        { path: "id", message: expect.any(String) as string },
        { path: "args[0]", message: expect.any(String) as string },
      ],
    });
  });

  it("says why a lane rule is refused in words an admin reads", () => {
    expect(refusal(stdio({ lanes: ["*", "default"] })).userMessage).toMatch(
      /"\*" already means every lane/,
    );
    expect(refusal(stdio({ comand: "npx" })).userMessage).toMatch(/unknown field/);
  });
});

describe("parseConnectorDefinition: secrets in non-secret fields", () => {
  it.each([
    ["an argument", stdio({ args: ["-y", "server", GITHUB_TOKEN] }), "args[2]"],
    [
      "an argument's value",
      stdio({ args: ["--header", `Authorization: Bearer ${GITHUB_TOKEN}`] }),
      "args[1]",
    ],
    ["a flag named for a token", stdio({ args: ["--access-token=sentry-user-token"] }), "args[0]"],
    ["the value after a token flag", stdio({ args: ["--api-key", "hunter2hunter2"] }), "args[1]"],
    ["a NAME=value argument", stdio({ args: ["-e", "GITHUB_TOKEN=abc123"] }), "args[1]"],
    ["an environment value", stdio({ env: { FOO: GITHUB_TOKEN } }), "env.FOO"],
    [
      "a variable named for a secret",
      stdio({ env: { DB_PASSWORD: "correct horse" } }),
      "env.DB_PASSWORD",
    ],
    [
      "the command",
      stdio({ command: `/opt/run-${"0d4c9e5f2b7a8e1c3f6a9d2b5e8c1f4a"}` }),
      "command",
    ],
    ["the name", stdio({ name: `Files ${GITHUB_TOKEN}` }), "name"],
    ["the description", stdio({ description: `use AKIAIOSFODNN7EXAMPLE for it` }), "description"],
    ["an initial tool", stdio({ initial_tools: ["AKIAIOSFODNN7EXAMPLE"] }), "initial_tools[0]"],
    [
      "a query value",
      http({ url: `https://mcp.tracker.example/mcp?team=a&key=${GITHUB_TOKEN}` }),
      "url",
    ],
    [
      "a query named for a secret",
      http({ url: "https://mcp.tracker.example/mcp?api_key=letmein" }),
      "url",
    ],
    [
      "a path segment",
      http({ url: "https://mcp.tracker.example/s/Zx8Qv2Lm9Tr4Wp7Kd1Nf6Hs3Jb0Gc5Ye1/mcp" }),
      "url",
    ],
    [
      "an Authorization header",
      http({ headers: { Authorization: "anything" } }),
      "headers.Authorization",
    ],
    ["a header named for a key", http({ headers: { "X-API-Key": "k" } }), "headers.X-API-Key"],
    ["a header value", http({ headers: { "X-Team": `Bearer ${GITHUB_TOKEN}` } }), "headers.X-Team"],
    [
      "a client id that is a token",
      http({ auth: "oauth", oauth_client_id: GITHUB_TOKEN }),
      "oauth_client_id",
    ],
  ])("refuses a secret in %s, naming %s", (_what, raw, path) => {
    const error = refusal(raw);
    expect(error.code).toBe("USER.CONNECTOR.SECRET_IN_FIELD");
    expect(error.location?.path).toBe(path);
    expect(error.userMessage).toContain(path);
    expect(JSON.stringify(error)).not.toContain(GITHUB_TOKEN);
    expect(JSON.stringify(error)).not.toContain("hunter2");
  });

  it("tells where the secret goes: the stdio server's credential variable", () => {
    const error = refusal(
      stdio({ credential_env: "GITHUB_PERSONAL_ACCESS_TOKEN", args: [GITHUB_TOKEN] }),
    );
    expect(error.userMessage).toMatch(/looks like a secret \(a GitHub token\)/);
    expect(error.userMessage).toMatch(
      /store it as the connector's credential; it reaches the server as the environment variable GITHUB_PERSONAL_ACCESS_TOKEN/,
    );
  });

  it("tells a stdio connector without credential_env to name one", () => {
    expect(refusal(stdio({ args: [GITHUB_TOKEN] })).userMessage).toMatch(/set credential_env/);
  });

  it("says why a value is taken for a secret when only its name gives it away", () => {
    expect(refusal(stdio({ env: { DB_PASSWORD: "correct horse" } })).userMessage).toMatch(
      /^env\.DB_PASSWORD looks like a secret \(its name says so\)/,
    );
    expect(refusal(stdio({ args: ["--api-key", "hunter2hunter2"] })).userMessage).toMatch(
      /^args\[1\] looks like a secret \(the value of --api-key\)/,
    );
    expect(refusal(http({ url: "https://a.example/mcp?api_key=zzz" })).userMessage).toMatch(
      /^url looks like a secret \(the query parameter api_key\)/,
    );
    expect(refusal(http({ headers: { "X-API-Key": "k" } })).userMessage).toMatch(
      /^headers\.X-API-Key looks like a secret \(a header named X-API-Key\)/,
    );
  });

  it("tells an http connector that the credential reaches the server as a bearer", () => {
    expect(refusal(http({ headers: { Authorization: "x" } })).userMessage).toMatch(
      /store it as the connector's credential; it reaches the server as a bearer token/,
    );
  });

  it.each([
    ["a model flag", stdio({ args: ["--model=claude-sonnet-4-5"] })],
    [
      "a docker variable passed through by name",
      stdio({
        args: ["run", "-i", "--rm", "-e", "GITHUB_TOKEN", "ghcr.io/github/github-mcp-server"],
      }),
    ],
    ["a flag named for a token with no value", stdio({ args: ["--token", "--read-only"] })],
    [
      "a variable whose name only starts like a secret",
      stdio({ env: { TOKEN_URL: "https://auth.example/token" } }),
    ],
    ["a secret-named switch", stdio({ env: { USE_PAT: "true" } })],
    ["a UUID", stdio({ args: ["--workspace", "550e8400-e29b-41d4-a716-446655440000"] })],
    [
      "a long path",
      stdio({
        command:
          "/usr/local/lib/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js",
      }),
    ],
    [
      "an image pinned by digest",
      stdio({
        args: [
          "ghcr.io/github/github-mcp-server@sha256:0d4c9e5f2b7a8e1c3f6a9d2b5e8c1f4a7d0b3e6c9f2a5d8b1e4c7f0a3d6b9e2c",
        ],
      }),
    ],
    [
      "a plain URL with a query",
      http({ url: "https://api.example.com/v2/mcp?toolsets=repos,issues&readonly=true" }),
    ],
    ["a header that is not a credential", http({ headers: { "X-MCP-Readonly": "true" } })],
    [
      "a sentence",
      stdio({ description: "Reads the team's tickets; the API key is stored as its credential." }),
    ],
  ])("lets %s pass", (_what, raw) => {
    expect(() => parseConnectorDefinition(raw)).not.toThrow();
  });
});

describe("toConnectorSpec", () => {
  it("turns a stdio definition into the host's spec, credential variable included", () => {
    const def = parseConnectorDefinition(
      stdio({ env: { LOG_LEVEL: "info" }, credential_env: "FILES_TOKEN" }),
    );
    expect(toConnectorSpec(def)).toEqual({
      id: "files",
      kind: "stdio",
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv/data"],
      env: { LOG_LEVEL: "info" },
      credentialEnv: "FILES_TOKEN",
    });
  });

  it("turns an http definition into the host's spec, with its non-secret headers", () => {
    expect(toConnectorSpec(parseConnectorDefinition(http()))).toEqual({
      id: "tracker",
      kind: "http",
      url: "https://mcp.tracker.example/mcp",
    });
    expect(
      toConnectorSpec(parseConnectorDefinition(http({ headers: { "X-MCP-Readonly": "true" } }))),
    ).toEqual({
      id: "tracker",
      kind: "http",
      url: "https://mcp.tracker.example/mcp",
      headers: { "X-MCP-Readonly": "true" },
    });
  });
});
