/**
 * What @switchyard/client generates from the web app's OpenAPI document: the document itself
 * (openapi.json, so the package builds without the web app) and its TypeScript types
 * (src/api-types.ts, by openapi-typescript). The generator script writes them and a test
 * fails when the committed files drift from the document the web app serves.
 */
import openapiTS, { astToString } from "openapi-typescript";

const HEADER = `/**
 * The Switchyard REST API's types, generated from openapi.json by openapi-typescript.
 * Do not edit: run \`npm run generate -w @switchyard/client\` after changing a route.
 */
`;

/** The files of the package that come from `document`, by path inside packages/client. */
export const clientSources = async (document: object) => {
  const ast = await openapiTS(document as Parameters<typeof openapiTS>[0], {
    alphabetize: true,
    exportType: true,
  });
  return {
    "openapi.json": `${JSON.stringify(document, null, 2)}\n`,
    "src/api-types.ts": `${HEADER}${astToString(ast)}`,
  };
};
