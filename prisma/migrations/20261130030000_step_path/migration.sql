-- Where a step attempt sits in its run (the engine's StepPath: workflow, state key, loop
-- iterations, call_workflow states), or null for rows written before the engine recorded it.
-- AlterTable
ALTER TABLE "StepRun" ADD COLUMN     "path" JSONB;
