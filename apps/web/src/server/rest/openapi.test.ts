import { expect, it } from "vitest";
import { openApiDocument, restOperations } from "./rest-api";

type Json = Record<string, unknown>;
const METHODS = ["get", "put", "post", "delete", "patch"];

/** Every node of a JSON value, with where it is. */
const walk = function* (value: unknown, at: string): Generator<[string, Json]> {
  if (value === null || typeof value !== "object") return;
  if (!Array.isArray(value)) yield [at, value as Json];
  for (const [key, child] of Object.entries(value)) yield* walk(child, `${at}/${key}`);
};

it("documents every REST route, each with its path parameters, a request schema where it takes a body, and real response schemas", () => {
  const doc = openApiDocument as unknown as {
    openapi: string;
    info: Json;
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Json };
  };
  expect(doc.openapi).toBe("3.1.0");
  expect(doc.info).toMatchObject({
    title: expect.any(String) as unknown,
    version: expect.any(String) as unknown,
  });
  const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(documented.sort()).toEqual(restOperations.map((r) => `${r.method} ${r.path}`).sort());
  expect(documented).toEqual(
    expect.arrayContaining([
      "GET /workflows",
      "POST /workflows",
      "POST /workflows/validate",
      "POST /workflows/{id}/runs",
      "GET /runs/{id}",
      "POST /runs/{id}/cancel",
      "GET /runs/{id}/steps/{stepId}/activity",
      "GET /variables",
      "PUT /variables/{name}",
      "DELETE /variables/{name}",
      "PUT /variables/{name}/lanes",
      "GET /tokens",
      "DELETE /tokens/{id}",
      "GET /models",
      "PUT /models/{vendor}",
      "DELETE /models/{vendor}",
    ]),
  );

  for (const [path, item] of Object.entries(doc.paths)) {
    expect(path.startsWith("/")).toBe(true);
    for (const [method, op] of Object.entries(item)) {
      expect(METHODS).toContain(method);
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const parameters =
        (op.parameters as { name: string; in: string; required: boolean }[] | undefined) ?? [];
      expect(parameters.filter((p) => p.in === "path").map((p) => p.name)).toEqual(names);
      // Query parameters are the route's own, documented with their schema.
      const route = restOperations.find(
        (r) => r.path === path && r.method.toLowerCase() === method,
      )!;
      expect(parameters.filter((p) => p.in === "query").map((p) => p.name)).toEqual(
        Object.keys(route.query?.shape ?? {}),
      );
      const responses = op.responses as Record<
        string,
        { description: string; content: Record<string, { schema: Json }> }
      >;
      const ok = Object.keys(responses).filter((status) => status.startsWith("2"));
      expect(ok, `${method} ${path}`).toContain(String(route.status));
      expect(ok.length, `${method} ${path}`).toBe(1 + Object.keys(route.otherSuccess ?? {}).length);
      for (const [status, response] of Object.entries(responses)) {
        expect(status).toMatch(/^[1-5]\d\d$/);
        expect(response.description).toBeTruthy();
        // JSON, or one message or line of a stream (text/event-stream, NDJSON)
        const schema = Object.values(response.content)[0]!.schema;
        if (status.startsWith("2"))
          expect(
            schema.type === "object" && typeof schema.properties === "object",
            `${method} ${path} ${status}`,
          ).toBe(true);
        else expect(schema).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  }
  // no shape left as a bare object, in a body, a response or a component
  const bare = [...walk(doc, "#")]
    .filter(
      ([, node]) =>
        node.type === "object" && !("properties" in node) && !("additionalProperties" in node),
    )
    .map(([at]) => at);
  expect(bare).toEqual([]);
});

it("documents starting a run as the route takes and answers it: optional inputs in, the queued run's id and status out", () => {
  const start = (openApiDocument.paths["/workflows/{id}/runs"] as Record<string, Json>).post as {
    requestBody: {
      required: boolean;
      content: { "application/json": { schema: { properties: Json } } };
    };
    responses: Record<
      string,
      { content: { "application/json": { schema: { properties: Json; required: string[] } } } }
    >;
  };
  expect(start.requestBody.required).toBe(false);
  expect(Object.keys(start.requestBody.content["application/json"].schema.properties)).toEqual([
    "inputs",
    "versionId",
  ]);
  const queued = start.responses["202"]!.content["application/json"].schema;
  expect(Object.keys(queued.properties).sort()).toEqual(["id", "status"]);
  expect(queued.required.sort()).toEqual(["id", "status"]);
});

const operation = (method: string, path: string) =>
  (
    openApiDocument.paths[path] as Record<
      string,
      {
        requestBody?: unknown;
        responses: Record<
          string,
          { description: string; content?: Record<string, { schema: Json }> }
        >;
      }
    >
  )[method]!;

it("documents 413 on every operation that takes a body, with the limit it has", () => {
  const withBody = restOperations.filter((r) => r.body);
  expect(withBody.length).toBeGreaterThan(20);
  const missing = withBody
    .filter((r) => !operation(r.method.toLowerCase(), r.path).responses["413"])
    .map((r) => `${r.method} ${r.path}`);
  expect(missing).toEqual([]);
  expect(operation("put", "/variables/{name}").responses["413"]!.description).toMatch(/1 MiB/);
  expect(operation("post", "/workflows").responses["413"]!.description).toMatch(/\d+ MiB/);
  expect(operation("post", "/workflows").responses["413"]!.description).not.toMatch(/\b1 MiB/);
  // An operation that reads no body says nothing of one.
  expect(operation("post", "/runs/{id}/cancel").responses["413"]).toBeUndefined();
});

it("documents the 200 of an idempotent replay of a run start, with the run it started", () => {
  const start = operation("post", "/workflows/{id}/runs");
  expect(start.responses["202"]!.description).toMatch(/queued/i);
  expect(start.responses["200"]!.description).toMatch(/Idempotency-Key/);
  expect(start.responses["200"]!.content).toEqual(start.responses["202"]!.content);
});

it("documents the 409 of cancelling a run that has ended, and of rotating a schedule's secret", () => {
  expect(operation("post", "/runs/{id}/cancel").responses["409"]!.description).toMatch(/ended/);
  expect(operation("post", "/triggers/{id}/rotate-secret").responses["409"]).toBeDefined();
});
