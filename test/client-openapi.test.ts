/**
 * @switchyard/client is generated from the OpenAPI document the web app serves: its committed
 * openapi.json and api-types.ts must be what the generator writes from today's document, so
 * a route changed without regenerating the client fails here (run
 * `npm run generate -w @switchyard/client`).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { openApiDocument } from "~/server/rest/rest-api";
import { clientSources } from "../packages/client/codegen/client-sources";

const CLIENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../packages/client");

it("the client's committed document and types are generated from the document the web app serves", async () => {
  const generated = await clientSources(openApiDocument);
  expect(Object.keys(generated).sort()).toEqual(["openapi.json", "src/api-types.ts"]);
  for (const [file, text] of Object.entries(generated)) {
    const committed = await readFile(path.join(CLIENT, file), "utf8");
    // One comparison per file, named, without printing half a megabyte of diff.
    expect(
      committed === text,
      `packages/client/${file} is stale: npm run generate -w @switchyard/client`,
    ).toBe(true);
  }
});

it("the types follow the document: a route's path, its parameters and its answer's fields are there", async () => {
  const types = await readFile(path.join(CLIENT, "src/api-types.ts"), "utf8");
  for (const route of ["/workflows/{id}/runs", "/runs/{id}/events", "/waits/{id}/answer"])
    expect(types).toContain(`"${route}": {`);
  // A changed document gives other types: the check above is not blind.
  const changed = structuredClone(openApiDocument) as { paths: Record<string, unknown> };
  changed.paths["/a-route-nobody-has"] = changed.paths["/runs/{id}"];
  expect((await clientSources(changed))["src/api-types.ts"]).toContain('"/a-route-nobody-has": {');
});
