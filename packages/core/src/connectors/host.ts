/**
 * The worker's connector runtime: the pool of live MCP clients (stdio and streamable HTTP)
 * and a step's catalog resolved through it.
 */
export { buildStepCatalog, catalogForConfig } from "./build-step-catalog";
export { McpConnectorHost, type ElicitHandler } from "./mcp-connector-host";
export { processTransport } from "./process-transport";
export { insufficientScopeOf } from "./connect-client";
