export { startScriptedModel } from "./scripted-model";
export type {
  AnsweredBy,
  RecordedRequest,
  ScriptedModel,
  ScriptedModelOptions,
  ScriptFailure,
} from "./scripted-model";
export { fingerprint } from "./recording";
export type { RequestAuth } from "./recording";
export { API_NAMES, loadScript, parseScript } from "./script";
export type {
  ApiName,
  Expectation,
  Rule,
  Script,
  ScriptInput,
  ScriptToolCall,
  Turn,
} from "./script";
export type { OfferedTool, RequestView } from "./api-adapter";
export { parseSse, readSseJson } from "./read-sse";
export type { SseEvent } from "./read-sse";
