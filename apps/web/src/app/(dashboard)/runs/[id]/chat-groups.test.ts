import { expect, it } from "vitest";
import { chatsOf } from "./chat-groups";

const path = { workflow: "w", key: "/chat", loop: [], calls: [] };
const wait = (id: string, stepRunId: string, turn: number, at: number) => ({
  id,
  kind: "message",
  stepRunId,
  createdAt: new Date(at),
  detail: { state: "chat", turn, reply: `reply ${turn}` },
});

it("shows a chat that went on in a new attempt row after a worker was killed as one chat", () => {
  const steps = [
    { id: "a1", stateName: "chat", path, conversation: null },
    { id: "a2", stateName: "chat", path, conversation: { stopped_by: "user_exit" } },
  ];
  const chats = chatsOf(
    [wait("w3", "a2", 3, 3), wait("w1", "a1", 1, 1), wait("w2", "a2", 2, 2)],
    steps,
  );
  expect(chats.map((c) => [c.waits.map((w) => w.id), c.stoppedBy])).toEqual([
    [["w1", "w2", "w3"], "user_exit"],
  ]);
});

it("ends a chat on a later row with no wait of its own, and starts another chat at a turn 1", () => {
  const steps = [
    { id: "a1", stateName: "chat", path, conversation: null },
    { id: "a2", stateName: "chat", path, conversation: { stopped_by: "error" } },
    { id: "a3", stateName: "chat", path, conversation: null },
    { id: "b1", stateName: "other", path: { ...path, key: "/other" }, conversation: null },
  ];
  const chats = chatsOf(
    [wait("w1", "a1", 1, 1), wait("w2", "a3", 1, 2), wait("x1", "b1", 1, 3)],
    steps,
  );
  expect(chats.map((c) => [c.waits.map((w) => w.id), c.stoppedBy])).toEqual([
    [["w1"], "error"],
    [["w2"], undefined],
    [["x1"], undefined],
  ]);
});
