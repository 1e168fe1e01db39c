import { describe, expect, it } from "vitest";
import { AppError } from "../errors";
import {
  connectorToolName,
  MAX_TOOL_NAME_LENGTH,
  sanitizeToolName,
  toolNameFor,
} from "./tool-names";
import type { ToolDescriptor, ToolProvider } from "./tool-provider";
import { capResult, DESCRIPTION_CAP, RESULT_TEXT_CAP, ToolRouter } from "./tool-router";
import { ToolSearch } from "./tool-search";

const provider = (
  source: string,
  tools: Partial<ToolDescriptor>[],
  reply = "ok",
): ToolProvider => ({
  source,
  listTools: () =>
    tools.map((t) => ({ name: "t", description: "", inputSchema: { type: "object" }, ...t })),
  callTool: async (name, args) => ({
    content: [{ type: "text", text: `${source}:${name}:${JSON.stringify(args)}:${reply}` }],
  }),
});
const signal = new AbortController().signal;

describe("tool names", () => {
  it("sanitises to [A-Za-z0-9_-] and keeps short safe names as they are", () => {
    expect(sanitizeToolName("github.create issue/v2")).toBe("github_create_issue_v2");
    expect(connectorToolName("linear", "list_issues")).toBe("linear_list_issues");
    expect(toolNameFor("Read")).toBe("Read");
  });

  it("shortens long names to 47 characters with a stable hash that tells similar names apart", () => {
    const a = connectorToolName(
      "a-very-long-connector-identifier",
      "create_a_pull_request_with_reviewers_alpha",
    );
    const b = connectorToolName(
      "a-very-long-connector-identifier",
      "create_a_pull_request_with_reviewers_beta",
    );
    expect(a.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
    expect(b.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[A-Za-z0-9_-]+_[0-9a-f]{8}$/);
    expect(
      connectorToolName(
        "a-very-long-connector-identifier",
        "create_a_pull_request_with_reviewers_alpha",
      ),
    ).toBe(a);
    expect(`mcp__switchyard__${a}`.length).toBeLessThanOrEqual(64);
  });
});

describe("ToolRouter", () => {
  it("routes by table to the owning provider, even when a name looks splittable", async () => {
    const router = ToolRouter.build([
      provider("builtin", [{ name: "Read" }]),
      provider("gh", [{ name: "gh_issue_list", source: "gh" }]),
    ]);
    const tool = router.get("gh_issue_list")!;
    expect(tool.source).toBe("gh");
    const r = await router.call(tool, { q: 1 }, { signal });
    expect(r.content[0]).toEqual({ type: "text", text: 'gh:gh_issue_list:{"q":1}:ok' });
    expect(router.get("gh")).toBeUndefined();
  });

  it("fails at build time with NAME_COLLISION naming both sources", () => {
    const build = () =>
      ToolRouter.build([
        provider("builtin", [{ name: "Read" }]),
        provider("catalog", [{ name: "Read", source: "files" }]),
      ]);
    expect(build).toThrow(AppError);
    try {
      build();
    } catch (e) {
      expect((e as AppError).code).toBe("USER.MCP_PROXY.NAME_COLLISION");
      expect((e as AppError).message).toMatch(/builtin \(Read\).*files \(Read\)/);
    }
    expect(() => ToolRouter.build([provider("x", [{ name: "a.b" }, { name: "a_b" }])])).toThrow(
      /a_b/,
    );
    expect(() =>
      ToolRouter.build([provider("x", [{ name: "tool_search" }])], ["tool_search"]),
    ).toThrow(/the proxy itself/);
  });

  it("caps descriptions, defaults schemas to an object, and caps result text with a note", () => {
    const router = ToolRouter.build([
      provider("x", [
        { name: "big", description: "d".repeat(10_000), inputSchema: {} },
        { name: "none", inputSchema: undefined },
      ]),
    ]);
    expect(router.get("big")!.description.length).toBe(DESCRIPTION_CAP);
    expect(router.get("big")!.inputSchema).toEqual({ type: "object" });
    expect(router.get("none")!.inputSchema).toEqual({ type: "object" });
    const half = RESULT_TEXT_CAP / 2 + 1;
    const capped = capResult({
      content: [
        { type: "text", text: "a".repeat(half) },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "text", text: "€".repeat(half / 3 + 1) },
      ],
    });
    const texts = capped.content.map((b) => (b.type === "text" ? b.text : ""));
    const bytes = Buffer.byteLength(texts.slice(0, -1).join(""));
    expect(bytes).toBeLessThanOrEqual(RESULT_TEXT_CAP);
    expect(bytes).toBeGreaterThan(RESULT_TEXT_CAP - 3);
    expect(texts.join("")).not.toContain("\ufffd");
    expect(capped.content[1]).toEqual({ type: "image", data: "AAAA", mimeType: "image/png" });
    expect(texts.at(-1)).toBe("\n[result truncated to 4,194,304 bytes]");
    const small = { content: [{ type: "text" as const, text: "ok" }] };
    expect(capResult(small)).toBe(small);
  });
});

describe("ToolSearch", () => {
  const router = ToolRouter.build([
    provider("builtin", [{ name: "Read" }]),
    provider("catalog", [
      { name: "linear_create_issue", description: "Create an issue in Linear", source: "linear" },
      { name: "linear_list_issues", description: "List issues", source: "linear" },
      { name: "gh_create_pr", description: "Open a pull request", source: "gh" },
    ]),
  ]);

  it("starts with initial tools only and activates every-term matches", () => {
    const search = new ToolSearch(router, true, ["Read"]);
    expect(search.visible().map((t) => t.name)).toEqual(["Read"]);
    const { matches, changed } = search.search("ISSUE create", 10);
    expect(matches.map((m) => m.name)).toEqual(["linear_create_issue"]);
    expect(matches[0]!.inputSchema).toEqual({ type: "object" });
    expect(changed).toBe(true);
    expect(search.search("issue create").changed).toBe(false);
    expect(search.visible().map((t) => t.name)).toEqual(["Read", "linear_create_issue"]);
    expect(search.search("issue", 1).matches).toHaveLength(1);
  });

  it("shows every tool without tool search and rejects unknown initial tools", () => {
    expect(new ToolSearch(router, false, undefined).visible()).toHaveLength(4);
    expect(() => new ToolSearch(router, true, ["nope"])).toThrow(/initial_tools names "nope"/);
  });
});
