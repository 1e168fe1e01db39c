/**
 * The Gemini side of the scripted model (what Gemini CLI speaks), over real HTTP on loopback,
 * read as a client reads it (no SDK is installed here: fetch and the SSE text).
 */
import { afterEach, describe, expect, it } from "vitest";
import { readSseJson } from "./read-sse";
import { fingerprint } from "./recording";
import { startScriptedModel, type ScriptedModel } from "./scripted-model";

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

type Part = { text?: string; functionCall?: { name: string; args: unknown } };
type Chunk = {
  candidates: { content: { role: string; parts: Part[] }; finishReason?: string }[];
  usageMetadata?: {
    promptTokenCount: number;
    candidatesTokenCount: number;
    totalTokenCount: number;
  };
};

const TOOLS = [
  { functionDeclarations: [{ name: "mcp_switchyard_Write" }, { name: "mcp_switchyard_Read" }] },
];

describe("Gemini", () => {
  it("streams text and functionCall parts over SSE with usageMetadata on the last chunk", async () => {
    model = await startScriptedModel({
      script: [
        {
          text: "Reading the file you named, then I will answer.",
          toolCalls: [{ name: { suffix: "Read" }, arguments: { path: "README.md" } }],
          expect: { systemContains: "You are Gemini", model: "gemini-2.5-pro" },
        },
      ],
    });
    const res = await fetch(
      `${model.url}/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse`,
      {
        method: "POST",
        headers: { "content-type": "application/json", "x-goog-api-key": "AIza-test-key" },
        body: JSON.stringify({
          contents: [{ role: "user", parts: [{ text: "read it" }] }],
          systemInstruction: { parts: [{ text: "You are Gemini CLI." }] },
          tools: TOOLS,
        }),
      },
    );
    expect(res.status).toBe(200);
    const chunks = (await readSseJson(res)).map((e) => e.data as Chunk);
    expect(chunks.length).toBeGreaterThan(1);
    const parts = chunks.flatMap((c) => c.candidates[0]!.content.parts);
    expect(parts.map((p) => p.text ?? "").join("")).toBe(
      "Reading the file you named, then I will answer.",
    );
    expect(parts.filter((p) => p.functionCall).map((p) => p.functionCall)).toEqual([
      { name: "mcp_switchyard_Read", args: { path: "README.md" } },
    ]);
    const last = chunks.at(-1)!;
    expect(last.candidates[0]!.finishReason).toBe("STOP");
    expect(last.usageMetadata!.totalTokenCount).toBe(
      last.usageMetadata!.promptTokenCount + last.usageMetadata!.candidatesTokenCount,
    );
    expect(chunks.slice(0, -1).every((c) => c.usageMetadata === undefined)).toBe(true);
    expect(model.failures).toEqual([]);
    expect(model.requests[0]!.auth).toEqual([
      { header: "x-goog-api-key", fingerprint: fingerprint("AIza-test-key") },
    ]);
  });

  it("answers generateContent as one JSON response and reads the last functionResponse", async () => {
    model = await startScriptedModel({
      script: [{ text: "The file says hello.", expect: { lastToolResultContains: "hello" } }],
    });
    const res = await fetch(
      `${model.url}/v1beta/models/gemini-flash:generateContent?key=AIza-query-key`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          contents: [
            { role: "user", parts: [{ text: "read" }] },
            { role: "model", parts: [{ functionCall: { name: "mcp_switchyard_Read", args: {} } }] },
            {
              role: "user",
              parts: [
                {
                  functionResponse: { name: "mcp_switchyard_Read", response: { output: "hello" } },
                },
              ],
            },
          ],
          tools: TOOLS,
        }),
      },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      candidates: [
        {
          content: { role: "model", parts: [{ text: "The file says hello." }] },
          finishReason: "STOP",
        },
      ],
      usageMetadata: { promptTokenCount: expect.any(Number) as number },
    });
    expect(model.failures).toEqual([]);
    const [request] = model.requests;
    expect(request!.auth).toEqual([
      { header: "query:key", fingerprint: fingerprint("AIza-query-key") },
    ]);
    expect(request!.path).toBe(
      `/v1beta/models/gemini-flash:generateContent?key=${encodeURIComponent(`<${fingerprint("AIza-query-key")}>`)}`,
    );
    expect(request!.view!.model).toBe("gemini-flash");
  });
});
