import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import { ALL_LANES } from "../policy";
import {
  CURATED_CONNECTORS,
  curatedConnector,
  curatedDefinition,
  mergeCuratedConnectors,
} from "./curated";
import { parseConnectorDefinition } from "./definition";

const entry = (id: string) => {
  const found = curatedConnector(id);
  if (!found) throw new Error(`no curated connector "${id}"`);
  return found;
};

const refusal = (run: () => unknown): AppError => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("it was accepted");
};

describe("the curated catalog", () => {
  it("ships Linear, GitHub, Sentry and Notion, each once", () => {
    const ids = CURATED_CONNECTORS.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining(["linear", "github", "sentry", "notion"]));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it.each(CURATED_CONNECTORS.map((c) => [c.id, c] as const))(
    "%s is a remote server over https, open to every lane, with its docs",
    (_id, c) => {
      expect(c.transport).toBe("http");
      expect(new URL(c.url).protocol).toBe("https:");
      expect(new URL(c.docsUrl).protocol).toBe("https:");
      expect(c.lanes).toEqual([ALL_LANES]);
      expect(c.auth.length).toBeGreaterThan(0);
      expect(c.auth.every((a) => a === "oauth" || a === "bearer")).toBe(true);
      expect(c.auth.includes("oauth")).toBe(c.oauthClient !== undefined);
    },
  );

  it.each(CURATED_CONNECTORS.flatMap((c) => c.auth.map((auth) => [c.id, auth] as const)))(
    "%s with auth %s is a valid connector definition, holding no secret",
    (id, auth) => {
      const c = entry(id);
      const choice =
        c.oauthClient === "pre-registered" && auth === "oauth"
          ? { oauth_client_id: "Iv1.8a61f9b3a7aba766" }
          : {};
      const def = curatedDefinition(c, { auth, ...choice });
      expect(parseConnectorDefinition(def)).toEqual(def);
      expect(def).toMatchObject({ id, transport: "http", url: c.url, auth, lanes: [ALL_LANES] });
    },
  );

  it("has the vendors' published endpoints and ways to sign in", () => {
    expect(entry("linear")).toMatchObject({
      url: "https://mcp.linear.app/mcp",
      auth: ["oauth", "bearer"],
    });
    expect(entry("github")).toMatchObject({
      url: "https://api.githubcopilot.com/mcp/",
      auth: ["bearer", "oauth"],
      oauthClient: "pre-registered",
    });
    expect(entry("sentry")).toMatchObject({ url: "https://mcp.sentry.dev/mcp", auth: ["oauth"] });
    expect(entry("notion")).toMatchObject({ url: "https://mcp.notion.com/mcp", auth: ["oauth"] });
  });
});

describe("curatedDefinition", () => {
  it("is offered, not switched on: the first way to sign in, every lane, disabled", () => {
    expect(curatedDefinition(entry("linear"))).toEqual({
      id: "linear",
      name: "Linear",
      description: entry("linear").description,
      transport: "http",
      url: "https://mcp.linear.app/mcp",
      auth: "oauth",
      lanes: [ALL_LANES],
      credential_mode: "team",
      initial_tools: [...entry("linear").initialTools],
      enabled: false,
      tool_allow: {},
    });
  });

  it("takes the team's choices: auth, lanes, whose account, tool rules, on", () => {
    const def = curatedDefinition(entry("github"), {
      auth: "bearer",
      lanes: ["default"],
      credential_mode: "member",
      tool_allow: { default: { deny: ["delete_*"] } },
      enabled: true,
    });
    expect(def).toMatchObject({
      auth: "bearer",
      lanes: ["default"],
      credential_mode: "member",
      tool_allow: { default: { deny: ["delete_*"] } },
      enabled: true,
    });
  });

  it("refuses a way to sign in the server does not offer", () => {
    const error = refusal(() => curatedDefinition(entry("notion"), { auth: "bearer" }));
    expect(error.code).toBe("USER.CONNECTOR.INVALID");
    expect(error.location?.path).toBe("auth");
  });

  it("asks for a client id where the vendor registers no client on the fly (GitHub)", () => {
    const error = refusal(() => curatedDefinition(entry("github"), { auth: "oauth" }));
    expect(error.code).toBe("USER.CONNECTOR.INVALID");
    expect(error.location?.path).toBe("oauth_client_id");
    expect(error.userMessage).toMatch(/register an OAuth app/);
  });

  it("checks the team's choices like any definition", () => {
    expect(
      refusal(() => curatedDefinition(entry("linear"), { lanes: ["*", "default"] })).location?.path,
    ).toBe("lanes");
  });
});

describe("mergeCuratedConnectors", () => {
  const own = parseConnectorDefinition({
    id: "files",
    name: "Files",
    transport: "stdio",
    command: "npx",
    args: ["-y", "@modelcontextprotocol/server-filesystem", "/srv"],
  });

  it("lists the catalog, then the team's own connectors", () => {
    const merged = mergeCuratedConnectors([own]);
    expect(merged.map((m) => [m.definition.id, m.source])).toEqual([
      ...CURATED_CONNECTORS.map((c) => [c.id, "curated"]),
      ["files", "team"],
    ]);
    expect(merged[0]!.curated).toBe(CURATED_CONNECTORS[0]);
    expect(merged.at(-1)!.curated).toBeUndefined();
  });

  it("lets a team connector with a curated id replace the catalog's, in its place", () => {
    const mine = curatedDefinition(entry("github"), {
      auth: "bearer",
      enabled: true,
      lanes: ["default"],
    });
    const merged = mergeCuratedConnectors([mine]);
    const github = merged.filter((m) => m.definition.id === "github");
    expect(github).toHaveLength(1);
    expect(github[0]).toEqual({ definition: mine, source: "team", curated: entry("github") });
    expect(merged.map((m) => m.definition.id)).toEqual(CURATED_CONNECTORS.map((c) => c.id));
  });

  it("takes a catalog to merge with, for tests and for a deployment that ships fewer", () => {
    expect(mergeCuratedConnectors([own], [entry("sentry")]).map((m) => m.definition.id)).toEqual([
      "sentry",
      "files",
    ]);
  });
});
