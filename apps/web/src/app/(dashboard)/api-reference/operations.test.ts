import { expect, it } from "vitest";
import { openApiDocument } from "~/server/rest/rest-api";
import { curlOf, exampleOf, groupOf, readOperations, type OpenApiDocument } from "./operations";

it("groups every served operation by its first path segment, once each", () => {
  const groups = readOperations(openApiDocument as unknown as OpenApiDocument);
  const listed = groups.flatMap((g) => g.operations.map((op) => `${op.method} ${op.path}`));
  const served = Object.entries(openApiDocument.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
  );
  expect(listed.sort()).toEqual(served.sort());
  for (const g of groups) for (const op of g.operations) expect(groupOf(op.path)).toBe(g.name);
  const overview = groups.find((g) => g.name === "overview")!.operations[0]!;
  expect(overview.parameters.map((p) => p.name)).toEqual(["days", "tz"]);
  expect(overview.errors.map((e) => e.status)).toContain("401");
});

it("writes a curl example with the bearer token, shell variables for path parameters and a body of the required fields", () => {
  const curl = curlOf("PUT", "/runs/{id}/steps/{stepId}", {
    requestBody: {
      content: {
        "application/json": {
          schema: {
            type: "object",
            required: ["name", "kind"],
            properties: {
              name: { type: "string" },
              kind: { enum: ["a", "b"] },
              note: { type: "string" },
            },
          },
        },
      },
    },
  });
  expect(curl).toBe(
    [
      `curl -X PUT "$SWITCHYARD_URL/api/v1/runs/$ID/steps/$STEP_ID"`,
      `  -H "Authorization: Bearer $SWITCHYARD_TOKEN"`,
      `  -H "Content-Type: application/json"`,
      `  -d '{"name":"string","kind":"a"}'`,
    ].join(" \\\n"),
  );
  expect(
    curlOf("GET", "/runs/{id}/events", {
      summary: "events as Server-Sent Events (text/event-stream)",
    }),
  ).toMatch(/^curl -N "\$SWITCHYARD_URL\/api\/v1\/runs\/\$ID\/events"/);
});

it("makes examples from defaults, enums and the first non-null variant, and quotes single quotes for the shell", () => {
  expect(exampleOf({ anyOf: [{ type: "null" }, { type: "integer", minimum: 1 }] })).toBe(1);
  expect(exampleOf({ type: "string", default: "x" })).toBe("x");
  const curl = curlOf("POST", "/x", {
    requestBody: {
      content: {
        "application/json": {
          schema: { type: "object", required: ["q"], properties: { q: { const: "it's" } } },
        },
      },
    },
  });
  expect(curl).toContain(`-d '{"q":"it'\\''s"}'`);
});
