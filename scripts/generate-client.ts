/**
 * Writes @switchyard/client's generated files (packages/client/openapi.json and
 * src/api-types.ts) from the OpenAPI document the web app serves at /api/v1/openapi.json.
 *
 *   npx tsx scripts/generate-client.ts      (or npm run generate -w @switchyard/client)
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "~/server/rest/rest-api";
import { clientSources } from "../packages/client/codegen/client-sources";

const CLIENT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../packages/client");

for (const [file, text] of Object.entries(await clientSources(openApiDocument)))
  await writeFile(path.join(CLIENT, file), text);
