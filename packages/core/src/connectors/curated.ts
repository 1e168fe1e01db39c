/**
 * The curated catalog: well-known remote MCP servers a team can switch on with nothing but
 * a credential. Each entry says where the server is, how it takes a credential (an OAuth
 * grant, a bearer API key, or either; the first is the default) and what its docs are; a
 * team's choices (auth, lanes, rules) make it a connector definition like any other, and a
 * team connector with the same id replaces the catalog's entry. Curated servers open to
 * every lane by default; an entry nobody set up is listed disabled.
 */
import { AppError } from "../errors";
import { ALL_LANES } from "../policy";
import {
  parseConnectorDefinition,
  type HttpConnectorDefinition,
  type ConnectorDefinition,
} from "./definition";
import type { ToolAllow } from "./tool-allow";

type CuratedAuth = "oauth" | "bearer";

type CuratedConnector = {
  id: string;
  name: string;
  description: string;
  transport: "http";
  url: string;
  /** The ways the server takes a credential; the first is the default. */
  auth: readonly CuratedAuth[];
  /**
   * With OAuth: "discovered" when the authorization server's metadata offers a way to get
   * a client id (dynamic registration or a client metadata document); "pre-registered"
   * when an OAuth app must be registered with the vendor first (its id in oauth_client_id).
   */
  oauthClient?: "discovered" | "pre-registered";
  /** `[ALL_LANES]`: every lane of the team. */
  lanes: readonly string[];
  /** The server's tool names to activate first under tool search; none: no preference. */
  initialTools: readonly string[];
  docsUrl: string;
};

export const CURATED_CONNECTORS: readonly CuratedConnector[] = [
  // URL and OAuth 2.1 with dynamic client registration: Linear's MCP docs,
  // https://linear.app/docs/mcp ("HTTP: https://mcp.linear.app/mcp"). An API key sent as a
  // bearer token: https://docs.litellm.ai/docs/mcp_servers/linear ("Alternative: A Linear
  // API key sent as a bearer token") and https://integrations.sh/linear.app/linear/.
  {
    id: "linear",
    name: "Linear",
    description: "Issues, projects, teams and comments in Linear.",
    transport: "http",
    url: "https://mcp.linear.app/mcp",
    auth: ["oauth", "bearer"],
    oauthClient: "discovered",
    lanes: [ALL_LANES],
    initialTools: ["list_issues", "get_issue", "list_teams"],
    docsUrl: "https://linear.app/docs/mcp",
  },
  // URL and "Using a GitHub PAT" with `Authorization: Bearer …`: the github/github-mcp-server
  // README and docs/remote-server.md ("URL: https://api.githubcopilot.com/mcp/"). OAuth needs
  // an app registered by the host: "Each MCP host application needs to configure a GitHub
  // App or OAuth App to support remote access via OAuth" (same README). Tool names: README.
  {
    id: "github",
    name: "GitHub",
    description: "Repositories, files, issues and pull requests on GitHub.",
    transport: "http",
    url: "https://api.githubcopilot.com/mcp/",
    auth: ["bearer", "oauth"],
    oauthClient: "pre-registered",
    lanes: [ALL_LANES],
    initialTools: [
      "get_me",
      "search_repositories",
      "get_file_contents",
      "list_issues",
      "issue_read",
      "search_issues",
    ],
    docsUrl: "https://github.com/github/github-mcp-server/blob/main/docs/remote-server.md",
  },
  // URL and OAuth: https://docs.sentry.io/product/sentry-mcp/ ("OAuth Configuration
  // (Recommended)", `"url": "https://mcp.sentry.dev/mcp"`). A token goes to the stdio
  // server instead (same page), so the remote entry is OAuth only. Tool names:
  // getsentry/sentry-mcp's tool list (whoami, find_organizations, get_issue_details…).
  {
    id: "sentry",
    name: "Sentry",
    description: "Issues, errors, traces and projects in Sentry, and Seer's analyses.",
    transport: "http",
    url: "https://mcp.sentry.dev/mcp",
    auth: ["oauth"],
    oauthClient: "discovered",
    lanes: [ALL_LANES],
    initialTools: ["whoami", "find_organizations", "search_issues", "get_issue_details"],
    docsUrl: "https://docs.sentry.io/product/sentry-mcp/",
  },
  // URL and OAuth 2.0 with PKCE (no API token on the hosted server):
  // https://developers.notion.com/guides/mcp/build-mcp-client ("Streamable HTTP
  // (recommended) https://mcp.notion.com/mcp"). Tool names: the hosted server's list
  // (notion-search, notion-fetch, notion-create-pages…).
  {
    id: "notion",
    name: "Notion",
    description: "Search, read and write pages and databases in Notion.",
    transport: "http",
    url: "https://mcp.notion.com/mcp",
    auth: ["oauth"],
    oauthClient: "discovered",
    lanes: [ALL_LANES],
    initialTools: ["notion-search", "notion-fetch"],
    docsUrl: "https://developers.notion.com/guides/mcp/overview",
  },
  // https://docs.stripe.com/mcp: OAuth per the MCP spec, and "you can pass a Stripe API key
  // as a bearer token to the MCP remote server" (a restricted key is recommended); the URL
  // https://mcp.stripe.com from stripe/ai's README ("Stripe hosts a remote MCP server at
  // https://mcp.stripe.com"). Its tool names were not verified: no initial tools.
  {
    id: "stripe",
    name: "Stripe",
    description: "Customers, payments, subscriptions and Stripe's documentation.",
    transport: "http",
    url: "https://mcp.stripe.com",
    auth: ["oauth", "bearer"],
    oauthClient: "discovered",
    lanes: [ALL_LANES],
    initialTools: [],
    docsUrl: "https://docs.stripe.com/mcp",
  },
];

/** The curated connector with this id, if there is one. */
export const curatedConnector = (id: string): CuratedConnector | undefined =>
  CURATED_CONNECTORS.find((c) => c.id === id);

/** What a team decides when it sets up a curated connector. */
type CuratedChoice = {
  auth?: CuratedAuth;
  oauth_client_id?: string;
  lanes?: string[];
  credential_mode?: "team" | "member";
  initial_tools?: string[];
  tool_allow?: ToolAllow;
  enabled?: boolean;
};

const invalid = (path: string, message: string) =>
  new AppError("USER.CONNECTOR.INVALID", `invalid connector definition: ${path}: ${message}`, {
    location: { path },
    details: { issues: [{ path, message }] },
  });

/** A curated entry with a team's choices, as a checked definition (defaults: first auth, every lane, off). */
export const curatedDefinition = (
  entry: CuratedConnector,
  choice: CuratedChoice = {},
): HttpConnectorDefinition => {
  const auth = choice.auth ?? entry.auth[0]!;
  if (!entry.auth.includes(auth)) {
    throw invalid("auth", `${entry.name} takes ${entry.auth.map((a) => `"${a}"`).join(" or ")}`);
  }
  if (
    auth === "oauth" &&
    entry.oauthClient === "pre-registered" &&
    choice.oauth_client_id === undefined
  ) {
    throw invalid(
      "oauth_client_id",
      `${entry.name} registers no OAuth client on the fly: register an OAuth app with ${entry.name} and give its client id`,
    );
  }
  const def = parseConnectorDefinition({
    id: entry.id,
    name: entry.name,
    description: entry.description,
    transport: "http",
    url: entry.url,
    auth,
    ...(choice.oauth_client_id === undefined ? {} : { oauth_client_id: choice.oauth_client_id }),
    lanes: choice.lanes ?? [...entry.lanes],
    credential_mode: choice.credential_mode ?? "team",
    initial_tools: choice.initial_tools ?? [...entry.initialTools],
    tool_allow: choice.tool_allow ?? {},
    enabled: choice.enabled ?? false,
  });
  if (def.transport !== "http") throw new Error("a curated connector is http");
  return def;
};

/** A connector a team can use: its own, or a catalog entry it has not set up. */
type ConnectorListing = {
  definition: ConnectorDefinition;
  source: "team" | "curated";
  /** The catalog entry of the same id, if any (its docs, its ways to sign in). */
  curated?: CuratedConnector;
};

/**
 * The catalog merged with a team's own definitions: catalog entries first, in catalog
 * order, a team connector with the same id in the entry's place; then the team's others.
 */
export const mergeCuratedConnectors = (
  team: readonly ConnectorDefinition[],
  catalog: readonly CuratedConnector[] = CURATED_CONNECTORS,
): ConnectorListing[] => {
  const own = new Map(team.map((d) => [d.id, d]));
  const listed: ConnectorListing[] = catalog.map((entry) => {
    const mine = own.get(entry.id);
    return mine
      ? { definition: mine, source: "team", curated: entry }
      : { definition: curatedDefinition(entry), source: "curated", curated: entry };
  });
  const curatedIds = new Set(catalog.map((c) => c.id));
  for (const def of team)
    if (!curatedIds.has(def.id)) listed.push({ definition: def, source: "team" });
  return listed;
};
