import { describe, expect, it } from "vitest";
import { replayPlanOf, type RecordedCallRow } from "./replay-plan";

const row = (toolName: string, extra: Partial<RecordedCallRow> = {}): RecordedCallRow => ({
  toolName,
  source: "builtin",
  connectorId: null,
  fidelity: "proxy",
  arguments: { n: 1 },
  result: { content: [{ type: "text", text: toolName }] },
  isError: false,
  ...extra,
});

describe("replayPlanOf", () => {
  it("takes the proxy's calls in order as recordings, leaving out the CLI's own tools and what the proxy answered itself", () => {
    const plan = replayPlanOf(
      [
        row("Read"),
        row("tool_search", { source: "proxy" }),
        row("Bash", { source: "agent", fidelity: "agent_reported" }),
        row("gh_issue", { source: "gh", connectorId: "gh", isError: true }),
        row("Read", { arguments: { n: 2 } }),
      ],
      "error",
    );
    expect(plan.recordings.map((r) => [r.tool, r.arguments, r.isError])).toEqual([
      ["Read", { n: 1 }, false],
      ["gh_issue", { n: 1 }, true],
      ["Read", { n: 2 }, false],
    ]);
    expect(plan.unmatched).toBe("error");
  });

  it("lists the connector tools called, described where the stored catalog says how", () => {
    const described = {
      name: "gh_issue",
      description: "Open an issue",
      inputSchema: { type: "object", properties: { title: { type: "string" } } },
      connector: "gh",
      tool: "issue",
    };
    const plan = replayPlanOf(
      [
        row("gh_issue", { source: "gh", connectorId: "gh" }),
        row("gh_issue", { source: "gh", connectorId: "gh" }),
        row("files_fingerprint", { source: "files", connectorId: "files" }),
      ],
      "live_builtins",
      [described],
    );
    expect(plan.catalog).toEqual([
      described,
      { name: "files_fingerprint", description: "", connector: "files", tool: "files_fingerprint" },
    ]);
  });
});
