/**
 * The OpenAI Responses side of the scripted model (what Codex speaks), over real HTTP on
 * loopback, read as a client reads it (no SDK is installed here: fetch and the SSE text).
 */
import { afterEach, describe, expect, it } from "vitest";
import { readSseJson } from "./read-sse";
import { startScriptedModel, type ScriptedModel } from "./scripted-model";

let model: ScriptedModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

const post = (url: string, body: unknown) =>
  fetch(`${url}/v1/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer k" },
    body: JSON.stringify(body),
  });

type Item = {
  id: string;
  type: string;
  name?: string;
  call_id?: string;
  arguments?: string;
  namespace?: string;
};
type Event = {
  type: string;
  sequence_number: number;
  item_id?: string;
  delta?: string;
  item?: Item;
  response?: { status: string; output: Item[]; usage: Record<string, number> | null };
};

describe("OpenAI Responses", () => {
  it("streams a message and a function call from response.created to response.completed with usage", async () => {
    const args = { command: "ls -la", cwd: "src/components/deeply/nested" };
    model = await startScriptedModel({
      script: [
        {
          text: "Listing the folder for you.",
          toolCalls: [{ name: "shell_exec", arguments: args }],
        },
      ],
    });
    const res = await post(model.url, {
      model: "gpt-5-codex",
      stream: true,
      instructions: "You are Codex.",
      input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "list" }] }],
      tools: [{ type: "function", name: "shell_exec", parameters: { type: "object" } }],
    });
    expect(res.status).toBe(200);
    const events = (await readSseJson(res)).map((e) => e.data as Event);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(types.filter((t) => t === "response.output_item.added")).toHaveLength(2);
    expect(types.filter((t) => t === "response.output_item.done")).toHaveLength(2);

    const text = events
      .filter((e) => e.type === "response.output_text.delta")
      .map((e) => e.delta)
      .join("");
    expect(text).toBe("Listing the folder for you.");
    const call = events.find(
      (e) => e.type === "response.output_item.added" && e.item!.type === "function_call",
    )!.item!;
    expect(call).toMatchObject({
      name: "shell_exec",
      call_id: expect.stringMatching(/^call_/) as string,
    });
    const argDeltas = events.filter(
      (e) => e.type === "response.function_call_arguments.delta" && e.item_id === call.id,
    );
    expect(argDeltas.length).toBeGreaterThan(1);
    expect(JSON.parse(argDeltas.map((e) => e.delta).join(""))).toEqual(args);

    const completed = events.at(-1)!.response!;
    expect(completed.status).toBe("completed");
    expect(completed.output.map((i) => i.type)).toEqual(["message", "function_call"]);
    expect(completed.usage).toMatchObject({
      input_tokens: expect.any(Number) as number,
      output_tokens: expect.any(Number) as number,
    });
    expect(completed.usage!.total_tokens).toBe(
      completed.usage!.input_tokens! + completed.usage!.output_tokens!,
    );
  });

  it("reads instructions and function_call_output, and calls a namespaced tool by its bare name and namespace", async () => {
    model = await startScriptedModel({
      script: [
        {
          toolCalls: [{ name: { suffix: "Write" }, arguments: { path: "x" } }],
          expect: {
            systemContains: "You are Codex",
            lastToolResultContains: "wrote 3 bytes",
            toolOffered: "mcp__switchyard__Write",
          },
        },
      ],
    });
    const res = await post(model.url, {
      model: "m",
      instructions: "You are Codex.",
      input: [
        { type: "function_call", call_id: "c0", name: "Read", arguments: "{}" },
        { type: "function_call_output", call_id: "c0", output: "wrote 3 bytes" },
      ],
      tools: [
        {
          type: "namespace",
          name: "mcp__switchyard",
          tools: [
            { type: "function", name: "Write" },
            { type: "function", name: "Read" },
          ],
        },
        { type: "web_search" },
      ],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; output: Item[] };
    expect(body.status).toBe("completed");
    expect(body.output).toEqual([
      expect.objectContaining({
        type: "function_call",
        name: "Write",
        namespace: "mcp__switchyard",
        arguments: '{"path":"x"}',
      }),
    ]);
    expect(model.requests[0]!.view!.tools.map((t) => t.name)).toEqual([
      "mcp__switchyard__Write",
      "mcp__switchyard__Read",
      "web_search",
    ]);
    expect(model.failures).toEqual([]);
  });

  it("takes the tools of an additional_tools input item (code mode) as offered, and not as conversation", async () => {
    model = await startScriptedModel({
      script: [
        {
          toolCalls: [{ name: "mcp__switchyard__Read", arguments: { path: "x" } }],
          expect: { toolOffered: ["mcp__switchyard__Read", "functions__exec"] },
        },
      ],
    });
    const res = await post(model.url, {
      model: "m",
      input: [
        {
          type: "additional_tools",
          role: "developer",
          tools: [
            {
              type: "namespace",
              name: "functions",
              tools: [{ type: "custom", name: "exec", description: "TOOL-TEXT" }],
            },
            {
              type: "namespace",
              name: "mcp__switchyard",
              tools: [{ type: "function", name: "Read" }],
            },
          ],
        },
        { type: "message", role: "user", content: [{ type: "input_text", text: "read x" }] },
      ],
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { output: Item[] };
    expect(body.output).toEqual([
      expect.objectContaining({
        type: "function_call",
        name: "Read",
        namespace: "mcp__switchyard",
      }),
    ]);
    expect(model.requests[0]!.view!.messagesText).not.toContain("TOOL-TEXT");
    expect(model.failures).toEqual([]);
  });
});
