import { expect, it } from "vitest";
import { ToolGate } from "./tool-gate";

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

it("never lets a file tool run while a shell command runs, nor the reverse, but lets one kind run together", async () => {
  const gate = new ToolGate();
  const log: string[] = [];
  const task = (kind: "shell" | "files", name: string, ms: number) =>
    gate.run(kind, async () => {
      log.push(`${name}+`);
      await later(ms);
      log.push(`${name}-`);
    });
  await Promise.all([
    task("shell", "bash1", 40),
    task("shell", "bash2", 10),
    task("files", "write", 5),
    task("files", "read", 5),
  ]);
  const bashDone = Math.max(log.indexOf("bash1-"), log.indexOf("bash2-"));
  expect(log.indexOf("write+")).toBeGreaterThan(bashDone);
  expect(log.indexOf("read+")).toBeGreaterThan(bashDone);
  expect(log.indexOf("bash2+")).toBeLessThan(log.indexOf("bash1-")); // shells overlapped
});
