import { describe, expect, it } from "vitest";
import { Scrubber } from "../secrets";
import type { AgentRequest } from "../workflow";
import {
  agentRequestRecord,
  replayedRequest,
  type AgentRequestRecord,
  type ReplayChanges,
} from "./request-record";

const request: AgentRequest = {
  stateName: "review",
  attemptId: "sr1",
  attempt: 1,
  path: { key: "review" } as AgentRequest["path"],
  provider: "claude",
  prompt: "review with token tok-123456",
  options: { model: "m1", api_key: "sk-live-key", headers: { auth: "tok-123456" } },
  mcpProxy: {
    enable: true,
    interceptBuiltins: false,
    connectors: ["gh"],
    initialTools: [],
    toolSearch: false,
  },
  timeoutMs: 60_000,
  signal: new AbortController().signal,
};

describe("agentRequestRecord", () => {
  it("keeps what a replay needs, drops the key and scrubs secrets everywhere", () => {
    const record = agentRequestRecord(request, new Scrubber().add("tok-123456"));
    expect(record).toMatchObject({
      v: 1,
      stateName: "review",
      provider: "claude",
      timeoutMs: 60_000,
    });
    expect(record.mcpProxy?.connectors).toEqual(["gh"]);
    const text = JSON.stringify(record);
    expect(text).not.toContain("tok-123456");
    expect(text).not.toContain("sk-live-key");
    expect(record.options).not.toHaveProperty("api_key");
    expect(record.options.model).toBe("m1");
  });

  it("gives the replay's changes over the recorded request", () => {
    const record: AgentRequestRecord = agentRequestRecord(request, new Scrubber());
    const none: ReplayChanges = {};
    expect(replayedRequest(record, none)).toMatchObject({
      provider: "claude",
      prompt: request.prompt,
    });
    const changed = replayedRequest(record, { provider: "gemini", model: "m2", prompt: "again" });
    expect(changed).toMatchObject({ provider: "gemini", prompt: "again" });
    expect(changed.options).toEqual({ model: "m2", headers: { auth: "tok-123456" } });
  });
});
