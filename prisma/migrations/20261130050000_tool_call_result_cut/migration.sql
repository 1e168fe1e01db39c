-- A tool result the proxy cut for the agent: its full size and the workspace file keeping it.
ALTER TABLE "ToolCall" ADD COLUMN "resultCut" JSONB;
