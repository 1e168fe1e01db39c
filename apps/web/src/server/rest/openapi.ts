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
  info: { title: "Switchyard API", version: "1.0.0", description: "Workflows and runs of the team the token belongs to." },
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
  },
} as const;
