export { startModelGateway } from "./model-gateway";
export type { ModelGateway } from "./model-gateway";
export { createLoopbackForwarder } from "./loopback-forwarder.mjs";
export type { LoopbackForwarder } from "./loopback-forwarder.mjs";
export {
  installLoopbackForwarder,
  LOOPBACK_FORWARDER_SCRIPT,
  loopbackCommand,
} from "./loopback-command";
export type { LoopbackCommandOptions } from "./loopback-command";
export { stepBaseUrl } from "./vendor-routes";
export { costOf, DEFAULT_PRICES, priceOf } from "./price-table";
export { UsageReader } from "./usage-reader";
export type { MeteredApi, UsageReading } from "./usage-reader";
export {
  DEFAULT_HEADER_STYLE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_TIMEOUTS,
  HEADER_STYLES,
  VENDORS,
} from "./gateway-types";
export type {
  GatewayLogger,
  GatewayOptions,
  GatewayTimeouts,
  HeaderStyle,
  LogLevel,
  MeterEvent,
  ModelPrice,
  PriceTable,
  Registration,
  RegisterOptions,
  Upstream,
  Usage,
  Vendor,
} from "./gateway-types";
