-- A step's AWF state.conversation (session id, turns, tokens, stopped_by) on its attempt row
ALTER TABLE "StepRun" ADD COLUMN     "conversation" JSONB;
