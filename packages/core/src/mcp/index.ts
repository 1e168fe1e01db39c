export { adaptResult, adaptTool } from "./adapt-result";
export type { RecordSink, SpanAttributes, SpanRecord, ToolCallRecord } from "./call-record";
export { CallRecorder } from "./call-recorder";
export type { CallLogger, CallOutcome, CallRecorderDeps } from "./call-recorder";
export {
  bashSandboxOf,
  loadProxyConfig,
  parseProxyConfig,
  proxyConfigSchema,
} from "./proxy-config";
export type { ProxyConfig } from "./proxy-config";
export { ProxyServer, TOOLS_PAGE_SIZE } from "./proxy-server";
export type { ProxyServerDeps } from "./proxy-server";
export { nullSink, RecordFileSink } from "./record-file-sink";
export { capValue, RECORD_VALUE_CAP, Redactor } from "./redact";
export { serveProxy } from "./serve-proxy";
export type { ProxyExit, ServeProxyDeps } from "./serve-proxy";
export { StepChannelClient } from "./step-channel-client";
export type { StepChannelOptions } from "./step-channel-client";
export { hostMessage, proxyMessage, STEP_CHANNEL_VERSION } from "./step-channel-protocol";
export type { HostMessage, ProxyMessage } from "./step-channel-protocol";
export { formatTraceparent, newSpanId, newTraceId, parseTraceparent } from "./trace-context";
export type { TraceContext } from "./trace-context";
export { startStepChannel } from "./step-channel-server";
export type {
  ChannelClosed,
  ChannelReady,
  StepChannel,
  StepChannelServerOptions,
} from "./step-channel-server";
