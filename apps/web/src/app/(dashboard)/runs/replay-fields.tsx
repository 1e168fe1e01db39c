"use client";
/**
 * The fields of what a replay changes (provider, model, agent CLI version, prompt, calls
 * with no recording left), shared by the replay of one attempt and "replay all examples";
 * the CLI versions are those the server says are installed.
 */
import { useQuery } from "@tanstack/react-query";
import { PROVIDERS } from "@switchyard/core/workflow/vocabulary";
import { useTRPC } from "~/trpc/react";
import styles from "./replay.module.css";

export type ReplayForm = {
  provider: string;
  model: string;
  agentVersion: "pinned" | "latest";
  prompt: string;
  unmatched: "error" | "live_builtins";
};

export const emptyReplayForm = (prompt = ""): ReplayForm => ({
  provider: "",
  model: "",
  agentVersion: "pinned",
  prompt,
  unmatched: "error",
});

type Provider = (typeof PROVIDERS)[number];

/** The changes a form asks for: what is left as recorded is left out. */
export const replayChangesOf = (form: ReplayForm, recordedPrompt?: string) => ({
  ...(form.provider ? { provider: form.provider as Provider } : {}),
  ...(form.model.trim() ? { model: form.model.trim() } : {}),
  ...(form.agentVersion === "latest" ? { agentVersion: "latest" as const } : {}),
  ...(recordedPrompt !== undefined && form.prompt.trim() && form.prompt !== recordedPrompt
    ? { prompt: form.prompt }
    : {}),
  ...(form.unmatched === "live_builtins" ? { unmatched: "live_builtins" as const } : {}),
});

export function ReplayFields({
  form,
  onChange,
  recorded,
  idPrefix,
}: {
  form: ReplayForm;
  onChange: (form: ReplayForm) => void;
  /** the attempt's own provider, model and prompt; unset for a suite (each attempt keeps its own) */
  recorded?: { provider: string | null; model: string | null; prompt: string };
  idPrefix: string;
}) {
  const trpc = useTRPC();
  const versions = useQuery(trpc.agents.versions.queryOptions(undefined, { staleTime: 60_000 }));
  const set = <K extends keyof ReplayForm>(key: K, value: ReplayForm[K]) =>
    onChange({ ...form, [key]: value });
  const agent = form.provider || recorded?.provider || "";
  const pins = versions.data?.agents.find((a) => a.agent === agent);
  const anyLatest = versions.data?.agents.some((a) => a.latest !== null) ?? false;
  return (
    <>
      <div className={styles.fields}>
        <label htmlFor={`${idPrefix}-provider`}>
          Provider
          <select
            id={`${idPrefix}-provider`}
            value={form.provider}
            onChange={(e) => set("provider", e.target.value)}
          >
            <option value="">
              {recorded?.provider ? `as recorded (${recorded.provider})` : "as recorded"}
            </option>
            {PROVIDERS.map((p) => (
              <option key={p} value={p}>
                {p}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={`${idPrefix}-model`}>
          Model
          <input
            id={`${idPrefix}-model`}
            value={form.model}
            placeholder={recorded?.model ? `as recorded (${recorded.model})` : "as recorded"}
            onChange={(e) => set("model", e.target.value)}
          />
        </label>
        <label htmlFor={`${idPrefix}-version`}>
          CLI version
          <select
            id={`${idPrefix}-version`}
            value={form.agentVersion}
            onChange={(e) => set("agentVersion", e.target.value as ReplayForm["agentVersion"])}
          >
            <option value="pinned">pinned{pins ? ` (${pins.pinned})` : ""}</option>
            <option value="latest" disabled={pins ? pins.latest === null : !anyLatest}>
              latest installed
              {pins?.latest ? ` (${pins.latest})` : pins || !anyLatest ? " (none installed)" : ""}
            </option>
          </select>
        </label>
        <label htmlFor={`${idPrefix}-unmatched`}>
          A call with no recording left
          <select
            id={`${idPrefix}-unmatched`}
            value={form.unmatched}
            onChange={(e) => set("unmatched", e.target.value as ReplayForm["unmatched"])}
          >
            <option value="error">answer with a tool error</option>
            <option value="live_builtins">run built-ins live in the sandbox</option>
          </select>
        </label>
      </div>
      {recorded ? (
        <label htmlFor={`${idPrefix}-prompt`}>
          Prompt
          <textarea
            id={`${idPrefix}-prompt`}
            rows={5}
            value={form.prompt}
            onChange={(e) => set("prompt", e.target.value)}
          />
        </label>
      ) : null}
    </>
  );
}
