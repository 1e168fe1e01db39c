/**
 * The REST API's OpenAPI 3.1 description, served at /api/v1/openapi.json.
 */
const error = { $ref: "#/components/schemas/Error" };
const json = (schema: object) => ({ content: { "application/json": { schema } } });
const errors = {
  "400": { description: "Bad input", ...json(error) },
  "401": { description: "Missing or unknown token", ...json(error) },
  "403": { description: "The token's member may not do this", ...json(error) },
  "404": { description: "Not found in the token's team", ...json(error) },
};
const idParam = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });
const lanes = { type: "array", items: { type: "string" }, description: "lanes whose runs may open the secret" };
const bundle = {
  type: "object",
  required: ["files"],
  properties: {
    entry: { type: "string", default: "workflow.yaml", description: "path of the workflow YAML within files" },
    files: { type: "object", additionalProperties: { type: "string" }, description: "path → content" },
  },
};

export const openApiDocument = {
  openapi: "3.1.0",
  info: {
    title: "Switchyard API",
    version: "1.0.0",
    description: "Workflows, runs, variables and API tokens of the team the token belongs to.",
  },
  servers: [{ url: "/api/v1" }],
  security: [{ bearer: [] }],
  components: {
    securitySchemes: { bearer: { type: "http", scheme: "bearer", description: "an API token (sy_...) made in the dashboard" } },
    schemas: {
      Error: {
        type: "object",
        properties: {
          error: {
            type: "object",
            required: ["code", "message"],
            properties: { code: { type: "string" }, message: { type: "string" }, location: { type: "object" }, details: {} },
          },
        },
      },
      Variable: {
        type: "object",
        properties: { name: { type: "string" }, secret: { type: "boolean" }, value: { type: ["string", "null"] }, lanes: { type: "array", items: { type: "string" } } },
      },
      Token: {
        type: "object",
        properties: {
          id: { type: "string" },
          name: { type: "string" },
          prefix: { type: "string" },
          createdBy: { type: "object", properties: { id: { type: "string" }, name: { type: "string" }, email: { type: "string" } } },
          lastUsedAt: { type: ["string", "null"] },
          expiresAt: { type: ["string", "null"] },
        },
      },
      Run: {
        type: "object",
        properties: {
          id: { type: "string" },
          status: { enum: ["queued", "running", "succeeded", "failed", "cancelled"] },
          workflow: { type: "string" },
          errorCode: { type: ["string", "null"] },
          errorMessage: { type: ["string", "null"] },
          steps: { type: "array", items: { type: "object" } },
        },
      },
    },
  },
  paths: {
    "/workflows": {
      get: { summary: "List workflows", responses: { "200": { description: "Workflows", ...json({ type: "object" }) }, ...errors } },
      post: {
        summary: "Save a workflow bundle as a new version (validated whole; nothing is stored on error)",
        requestBody: { required: true, ...json(bundle) },
        responses: { "201": { description: "Saved", ...json({ type: "object" }) }, "422": { description: "Invalid workflow; details.diagnostics lists every problem", ...json(error) }, ...errors },
      },
    },
    "/workflows/validate": {
      post: { summary: "Validate a bundle without saving", requestBody: { required: true, ...json(bundle) }, responses: { "200": { description: "Diagnostics", ...json({ type: "object" }) }, ...errors } },
    },
    "/workflows/{id}/runs": {
      post: {
        summary: "Start a run of the workflow's current version",
        parameters: [idParam("id")],
        requestBody: { required: false, ...json({ type: "object", properties: { inputs: { type: "object" } } }) },
        responses: { "202": { description: "Queued", ...json({ $ref: "#/components/schemas/Run" }) }, ...errors },
      },
    },
    "/runs/{id}": {
      get: { summary: "A run with its steps", parameters: [idParam("id")], responses: { "200": { description: "The run", ...json({ $ref: "#/components/schemas/Run" }) }, ...errors } },
    },
    "/runs/{id}/cancel": {
      post: { summary: "Cancel a queued or running run", parameters: [idParam("id")], responses: { "202": { description: "Cancelled or cancelling", ...json({ type: "object" }) }, ...errors } },
    },
    "/variables": {
      get: {
        summary: "The team's variables: plain values, and each secret's lanes (a secret's value is never returned)",
        responses: { "200": { description: "Variables", ...json({ type: "object", properties: { variables: { type: "array", items: { $ref: "#/components/schemas/Variable" } } } }) }, ...errors },
      },
    },
    "/variables/{name}": {
      put: {
        summary: "Admins: set a variable; a new secret is open to the operator lane only unless lanes are given",
        parameters: [idParam("name")],
        requestBody: {
          required: true,
          ...json({ type: "object", required: ["value", "secret"], properties: { value: { type: "string" }, secret: { type: "boolean" }, lanes: lanes } }),
        },
        responses: { "200": { description: "Set", ...json({ type: "object" }) }, ...errors },
      },
      delete: { summary: "Admins: delete a variable", parameters: [idParam("name")], responses: { "200": { description: "Deleted", ...json({ type: "object" }) }, ...errors } },
    },
    "/variables/{name}/lanes": {
      put: {
        summary: "Admins: the lanes whose runs may open a secret",
        parameters: [idParam("name")],
        requestBody: { required: true, ...json({ type: "object", required: ["lanes"], properties: { lanes } }) },
        responses: { "200": { description: "The secret's lanes", ...json({ type: "object" }) }, ...errors },
      },
    },
    "/tokens": {
      get: {
        summary: "Live API tokens with who made each: an admin sees every member's, a member their own",
        responses: { "200": { description: "Tokens", ...json({ type: "object", properties: { tokens: { type: "array", items: { $ref: "#/components/schemas/Token" } } } }) }, ...errors },
      },
    },
    "/tokens/{id}": {
      delete: {
        summary: "Revoke a token: a member their own, an admin anyone's",
        parameters: [idParam("id")],
        responses: { "200": { description: "Revoked", ...json({ type: "object" }) }, ...errors },
      },
    },
  },
} as const;
