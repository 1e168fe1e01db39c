/**
 * Switchyard as the client under test of `@modelcontextprotocol/conformance`: the suite starts
 * a scenario's MCP server and runs this with the server's URL as the last argument and the
 * scenario's name in MCP_CONFORMANCE_SCENARIO (MCP_CONFORMANCE_CONTEXT: what a scenario gives
 * its client, such as a pre-registered client id). Everything the product does goes through
 * its own path, as a person would take it:
 *
 * 1. the web app's API creates an http connector of the test team for that URL
 *    (POST /api/v1/connectors), with OAuth sign-in where the scenario's server asks for it;
 * 2. "Connect with OAuth": POST /api/v1/connectors/{id}/oauth begins, this follows the
 *    authorization server's redirects as the approving person's browser would, and lands
 *    on the web app's callback, which stores the grant;
 * 3. the connector console calls a tool (POST /api/v1/connectors/{id}/call), which a worker
 *    runs through its connector pool with the stored grant; a form the server sends meanwhile
 *    (elicitation) is accepted as shown, through the waits API, as the admin would.
 *
 * SWITCHYARD_WEB_URL is the web app, SWITCHYARD_API_TOKEN an admin's API token (also what
 * stands for the admin's signed-in browser at the callback). Exit 0 when the tool answered
 * without an error; what the suite grades is what the scenario's server saw.
 */
import { createHash } from "node:crypto";

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
const web = process.env.SWITCHYARD_WEB_URL;
const token = process.env.SWITCHYARD_API_TOKEN;
const say = (line) => process.stderr.write(`switchyard-client: ${line}\n`);

/** The tool each scenario's server offers, and the arguments it expects. */
const TOOLS = {
  tools_call: ["add_numbers", { a: 5, b: 3 }],
  "elicitation-sep1034-client-defaults": ["test_client_elicitation_defaults", {}],
  "sse-retry": ["test_reconnection", {}],
};
const [tool, args] = TOOLS[scenario] ?? ["test-tool", {}];

const api = async (method, path, body) => {
  const response = await fetch(`${web}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json();
  if (!response.ok)
    throw new Error(
      `${method} ${path}: ${response.status} ${json.error?.code}: ${json.error?.message}`,
    );
  return json;
};

/** Follows redirects from `url` as a browser would, until one comes back to the web app's callback. */
const approve = async (url) => {
  let next = new URL(url);
  for (let hop = 0; hop < 10; hop++) {
    if (next.origin === new URL(web).origin) {
      const response = await fetch(next, {
        redirect: "manual",
        headers: { authorization: `Bearer ${token}` },
      });
      const outcome = new URL(response.headers.get("location") ?? "/", web).searchParams;
      if (outcome.get("error")) throw new Error(`the callback said ${outcome.get("error")}`);
      return outcome.get("connected");
    }
    const response = await fetch(next, { redirect: "manual" });
    const location = response.headers.get("location");
    if (!location)
      throw new Error(
        `the authorization server answered ${response.status} at ${next.pathname} without sending the browser on`,
      );
    next = new URL(location, next);
  }
  throw new Error("more than 10 redirects");
};

/** Accepts, through the waits API, every connector form that opens for the caller until `signal`. */
const answerForms = async (signal) => {
  const seen = new Set();
  while (!signal.aborted) {
    const { waits } = await api("GET", "/waits?mine=true");
    for (const wait of waits.filter((w) => w.kind === "elicitation" && !seen.has(w.id))) {
      seen.add(wait.id);
      say(`form: ${wait.question}`);
      await api("POST", `/waits/${wait.id}/answer`, { action: "accept" });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
};

const main = async () => {
  if (!serverUrl || !web || !token)
    throw new Error(
      "usage: SWITCHYARD_WEB_URL=… SWITCHYARD_API_TOKEN=… switchyard-client.mjs <server-url>",
    );
  const id = `conf_${createHash("sha256").update(`${scenario} ${serverUrl}`).digest("hex").slice(0, 12)}`;
  const oauth = scenario.startsWith("auth/");
  await api("POST", "/connectors", {
    definition: {
      id,
      name: scenario || id,
      transport: "http",
      url: serverUrl,
      auth: oauth ? "oauth" : "none",
      lanes: ["operator"],
      ...(oauth && context.client_id ? { oauth_client_id: context.client_id } : {}),
    },
  });
  say(`connector ${id} for ${serverUrl}`);
  // A client registered in advance with a secret: an admin sets the secret as on the connector's card.
  if (oauth && context.client_secret)
    await api("PUT", `/connectors/${id}/client-secret`, { secret: context.client_secret });
  if (oauth) {
    const begun = await api("POST", `/connectors/${id}/oauth`, { scope: "team" });
    say(`connected: ${await approve(begun.authorizationUrl)}`);
  }
  // A form the server sends during the call waits for this admin ("Waiting for you"): it is
  // answered as a person who accepts the form as shown, its defaults filled in.
  // Only where the scenario's server sends one: the others' calls put no polling on the web app.
  const answering = new AbortController();
  const answered = scenario.startsWith("elicitation")
    ? answerForms(answering.signal)
    : Promise.resolve();
  const result = await api("POST", `/connectors/${id}/call`, { tool, arguments: args }).finally(
    () => answering.abort(),
  );
  await answered;
  say(`${tool}: ${JSON.stringify(result.content)}`);
  if (result.isError) throw new Error(`${tool} answered an error`);
};

main().then(
  () => process.exit(0),
  (error) => {
    say(`failed: ${error.message}`);
    process.exit(1);
  },
);
