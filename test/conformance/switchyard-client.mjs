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
 *    For cross-app access (the scenario gives an IdP and an ID token), the connector is an
 *    "enterprise" one instead: the admin signs in through the scenario's IdP (see signIn)
 *    and no browser is involved;
 *    A machine-to-machine connector (client_credentials) skips this: the admin stores the
 *    client's secret or private key as its credential and the worker obtains tokens itself;
 * 3. the connector console calls a tool (POST /api/v1/connectors/{id}/call), which a worker
 *    runs through its connector pool with the stored grant; a form the server sends meanwhile
 *    (elicitation) is accepted as shown, through the waits API, as the admin would;
 * 4. when the call fails with USER.CONNECTOR.NEEDS_MORE_ACCESS (the server wants a wider
 *    scope), the connector's card says "needs more access": as a person would, this connects
 *    it again (the product asks for the wider scope) and tries the call once more.
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
    throw Object.assign(
      new Error(
        `${method} ${path}: ${response.status} ${json.error?.code}: ${json.error?.message}`,
      ),
      { code: json.error?.code },
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

/**
 * The admin signs in through the scenario's IdP, which issued `idToken`: the test's stand-in
 * for the sign-in (SWITCHYARD_SIGN_IN_URL) links the identity and keeps the token as the
 * web app's sign-in does.
 */
const signIn = async (issuer, idToken) => {
  const response = await fetch(process.env.SWITCHYARD_SIGN_IN_URL, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ issuer, idToken }),
  });
  if (!response.ok) throw new Error(`the sign-in stand-in answered ${response.status}`);
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
  // Cross-app access: the organisation's IdP grants each member's access from their sign-in.
  const enterprise = Boolean(context.idp_issuer);
  // A client of the team's own with a secret or a private key, and no person signing in.
  const machine = scenario.startsWith("auth/client-credentials-");
  const oauth = scenario.startsWith("auth/") && !enterprise && !machine;
  await api("POST", "/connectors", {
    definition: {
      id,
      name: scenario || id,
      transport: "http",
      url: serverUrl,
      auth: enterprise ? "enterprise" : machine ? "client_credentials" : oauth ? "oauth" : "none",
      lanes: ["operator"],
      ...((oauth || enterprise || machine) && context.client_id
        ? { oauth_client_id: context.client_id }
        : {}),
      ...(machine && context.private_key_pem ? { oauth_client_auth: "private_key_jwt" } : {}),
      ...(enterprise
        ? {
            credential_mode: "member",
            idp_issuer: context.idp_issuer,
            idp_client_id: context.idp_client_id,
          }
        : {}),
    },
  });
  say(`connector ${id} for ${serverUrl}`);
  if (enterprise) {
    await api("PUT", `/connectors/${id}/client-secret`, { secret: context.client_secret });
    await signIn(context.idp_issuer, context.idp_id_token);
    say("signed in through the scenario's IdP");
  }
  // The admin stores the client's secret or private key as the team's credential.
  if (machine)
    await api("PUT", `/connectors/${id}/credential`, {
      scope: "team",
      value: context.private_key_pem ?? context.client_secret,
    });
  // A client registered in advance with a secret: an admin sets the secret as on the connector's card.
  if (oauth && context.client_secret)
    await api("PUT", `/connectors/${id}/client-secret`, { secret: context.client_secret });
  const connect = async () => {
    const begun = await api("POST", `/connectors/${id}/oauth`, { scope: "team" });
    say(`connected: ${await approve(begun.authorizationUrl)}`);
  };
  if (oauth) await connect();
  // A form the server sends during the call waits for this admin ("Waiting for you"): it is
  // answered as a person who accepts the form as shown, its defaults filled in.
  // Only where the scenario's server sends one: the others' calls put no polling on the web app.
  const answering = new AbortController();
  // Its failure is reported once the call is over (not as an unhandled rejection meanwhile).
  let formsFailed;
  const answered = (
    scenario.startsWith("elicitation") ? answerForms(answering.signal) : Promise.resolve()
  ).catch((error) => (formsFailed = error));
  const call = () => api("POST", `/connectors/${id}/call`, { tool, arguments: args });
  const result = await call()
    .catch(async (error) => {
      if (error.code !== "USER.CONNECTOR.NEEDS_MORE_ACCESS") throw error;
      const card = (await api("GET", "/connectors")).connectors?.find((c) => c.id === id);
      say(`${card?.teamCredential?.status}: ${card?.teamCredential?.requiredScope}`);
      await connect();
      return call();
    })
    .finally(() => answering.abort());
  await answered;
  if (formsFailed) throw formsFailed;
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
