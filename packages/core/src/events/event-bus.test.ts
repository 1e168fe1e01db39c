import { expect, it } from "vitest";
import { createEventBus } from "./event-bus";

type Events = { "tool.recorded": { tool: string }; "span.ended": number };

it("calls the subscribers of an event in the order they subscribed, and none after they unsubscribe", async () => {
  const bus = createEventBus<Events>();
  const seen: string[] = [];
  bus.subscribe("tool.recorded", (r) => seen.push(`a:${r.tool}`));
  const off = bus.subscribe("tool.recorded", (r) => seen.push(`b:${r.tool}`));
  bus.subscribe("span.ended", (n) => seen.push(`span:${n}`));
  await bus.emit("tool.recorded", { tool: "Read" });
  off();
  await bus.emit("tool.recorded", { tool: "Write" });
  await bus.emit("span.ended", 7);
  expect(seen).toEqual(["a:Read", "b:Read", "a:Write", "span:7"]);
});

it("settles emit once every promise the subscribers returned has settled, rejected or not, and never throws", async () => {
  const bus = createEventBus<Events>();
  let store!: () => void;
  const stored = new Promise<void>((resolve) => (store = resolve));
  bus.subscribe("tool.recorded", () => stored);
  bus.subscribe("tool.recorded", () => Promise.reject(new Error("the database is gone")));
  bus.subscribe("tool.recorded", () => {
    throw new Error("a subscriber that throws");
  });
  let settled = false;
  const emitted = bus.emit("tool.recorded", { tool: "Read" }).then(() => (settled = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(settled).toBe(false);
  store();
  await emitted;
  expect(settled).toBe(true);
});
