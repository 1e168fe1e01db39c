"use client";
/**
 * "Replay" on a finished agent attempt: a form of what the replay changes (provider, model,
 * CLI version, prompt, what a call with no recording left gets); starting it opens the
 * replay run, whose tool calls are answered from this attempt's recording.
 */
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { emptyReplayForm, ReplayFields, replayChangesOf } from "../replay-fields";
import styles from "../replay.module.css";

export type RecordedRequest = { provider?: string; prompt?: string; options?: { model?: unknown } };

export function ReplayForm({
  runId,
  stepRunId,
  stateName,
  request,
}: {
  runId: string;
  stepRunId: string;
  stateName: string;
  request: RecordedRequest;
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const prompt = request.prompt ?? "";
  const [form, setForm] = useState(() => emptyReplayForm(prompt));
  const start = useMutation(
    trpc.replay.start.mutationOptions({ onSuccess: (run) => router.push(`/runs/${run.id}`) }),
  );
  const formId = `replay-${stepRunId}`;
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={formId}
        onClick={() => setOpen((o) => !o)}
      >
        Replay
      </button>
      {open ? (
        <form
          id={formId}
          className={`card ${styles.form}`}
          aria-label={`Replay ${stateName}`}
          onSubmit={(e) => {
            e.preventDefault();
            start.mutate({ runId, stepRunId, ...replayChangesOf(form, prompt) });
          }}
        >
          <p className="muted small">
            Runs this attempt again from its workspace as it started; its tool calls are answered
            from the recording, and nothing else runs unless you allow built-ins below.
          </p>
          <ReplayFields
            form={form}
            onChange={setForm}
            idPrefix={formId}
            recorded={{
              provider: request.provider ?? null,
              model: typeof request.options?.model === "string" ? request.options.model : null,
              prompt,
            }}
          />
          {start.isError ? (
            <p className="error" role="alert">
              Could not start the replay: {start.error.message}
            </p>
          ) : null}
          <div className={styles.actions}>
            <button type="submit" className="primary" disabled={start.isPending}>
              {start.isPending ? "Starting…" : "Start replay"}
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
