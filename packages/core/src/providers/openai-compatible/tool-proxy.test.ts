import { expect, it } from "vitest";
import { toolResultText } from "./tool-proxy";

it("gives the model text blocks joined, else the structured content's JSON, else a note", () => {
  expect(
    toolResultText({
      content: [
        { type: "text", text: "one" },
        { type: "image", data: "AAAA", mimeType: "image/png" },
        { type: "resource", resource: { uri: "file:///a", text: "inline" } },
        { type: "resource_link", uri: "file:///b", name: "b" },
        { type: "text", text: "two" },
      ],
    }),
  ).toBe("one\n[image image/png omitted]\ninline\n[resource file:///b]\ntwo");
  expect(toolResultText({ content: [], structuredContent: { n: 1 } })).toBe('{"n":1}');
  expect(toolResultText({ content: [{ type: "text", text: "" }] })).toBe("(no output)");
});
