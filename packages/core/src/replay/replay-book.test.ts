import { describe, expect, it } from "vitest";
import { createReplayBook, type RecordedCall } from "./replay-book";

const call = (tool: string, args: unknown, text: string, isError = false): RecordedCall => ({
  tool,
  arguments: args,
  result: { content: [{ type: "text", text }] },
  isError,
});

describe("createReplayBook", () => {
  it("answers a call with the same tool and canonical arguments, whatever their key order or spelling", () => {
    const book = createReplayBook([call("Read", { path: "a.txt", limit: 10 }, "A")]);
    expect(book.take("Read", JSON.parse('{ "limit": 1.0e1, "path": "a.txt" }'))).toMatchObject({
      result: { content: [{ text: "A" }] },
    });
  });

  it("uses each recording once, in recorded order per (tool, arguments)", () => {
    const book = createReplayBook([
      call("Bash", { command: "date" }, "first"),
      call("Read", { path: "a" }, "read"),
      call("Bash", { command: "date" }, "second", true),
    ]);
    expect(book.take("Bash", { command: "date" })).toMatchObject({
      result: { content: [{ text: "first" }] },
      isError: false,
    });
    expect(book.take("Bash", { command: "date" })).toMatchObject({
      result: { content: [{ text: "second" }] },
      isError: true,
    });
    expect(book.take("Bash", { command: "date" })).toBeUndefined();
    expect(book.take("Read", { path: "a" })).toMatchObject({
      result: { content: [{ text: "read" }] },
    });
  });

  it("does not answer another tool or other arguments", () => {
    const book = createReplayBook([call("Read", { path: "a" }, "A")]);
    expect(book.take("Read", { path: "b" })).toBeUndefined();
    expect(book.take("Glob", { path: "a" })).toBeUndefined();
    expect(book.take("Read", { path: "a", limit: 1 })).toBeUndefined();
    expect(book.take("Read", { path: "a" })).toBeDefined();
  });

  it("goes on matching the same way after a divergence: order across keys does not matter", () => {
    const book = createReplayBook([
      call("Read", { path: "1" }, "one"),
      call("Read", { path: "2" }, "two"),
      call("Read", { path: "3" }, "three"),
    ]);
    expect(book.take("Write", { path: "x", content: "" })).toBeUndefined();
    expect(book.take("Read", { path: "3" })).toMatchObject({
      result: { content: [{ text: "three" }] },
    });
    expect(book.take("Read", { path: "1" })).toMatchObject({
      result: { content: [{ text: "one" }] },
    });
    expect(book.take("Read", { path: "2" })).toMatchObject({
      result: { content: [{ text: "two" }] },
    });
  });

  it("takes missing arguments as the empty object a call without arguments sends", () => {
    const book = createReplayBook([call("files_fingerprint", undefined, "fp")]);
    expect(book.take("files_fingerprint", {})).toBeDefined();
  });
});
