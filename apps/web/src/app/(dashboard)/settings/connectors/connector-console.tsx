"use client";
/**
 * The connector console, for admins: call one tool of a team connector by hand, with JSON
 * arguments and the lane whose rules apply, through a worker (the web app holds no
 * connector or credential). Shows the tool's result, or the error's code and message; a
 * call no worker answers fails after a minute and says so.
 */
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import { FieldError, FormAlert, formError, invalidProps, type FormError } from "./form-parts";
import { nameOf, type Listing } from "./listing";

const FORM = "console";

/** The arguments as a JSON object, or the problem with them. */
const parseArguments = (text: string): { value: Record<string, unknown> } | { problem: string } => {
  if (text.trim() === "") return { value: {} };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== "object" || Array.isArray(value))
      return { problem: 'the arguments are a JSON object, like {"path": "README.md"}' };
    return { value: value as Record<string, unknown> };
  } catch (error) {
    return { problem: `the arguments are not JSON: ${(error as Error).message}` };
  }
};

export function ConnectorConsole(props: { connectors: Listing[]; teamLanes: string[] }) {
  const trpc = useTRPC();
  const call = useMutation(trpc.connectors.callTool.mutationOptions());
  const [connector, setConnector] = useState("");
  const [tool, setTool] = useState("");
  const [args, setArgs] = useState("{}");
  const [lane, setLane] = useState("");
  const [local, setLocal] = useState<FormError | null>(null);
  const error = local ?? formError(call.error);
  const chosen = connector || props.connectors[0]?.id || "";

  if (props.connectors.length === 0)
    return <p className="muted">Add or set up a connector to call its tools here.</p>;
  return (
    <>
      <form
        className="card settings-form"
        aria-label="Connector console"
        onSubmit={(e) => {
          e.preventDefault();
          const parsed = parseArguments(args);
          if ("problem" in parsed) {
            call.reset();
            setLocal({ message: parsed.problem, code: null, path: "arguments" });
            return;
          }
          setLocal(null);
          call.mutate({
            id: chosen,
            tool: tool.trim(),
            arguments: parsed.value,
            ...(lane ? { lane } : {}),
          });
        }}
      >
        <div className="form-grid">
          <label>
            Connector
            <select value={chosen} onChange={(e) => setConnector(e.target.value)}>
              {props.connectors.map((c) => (
                <option key={c.id} value={c.id}>
                  {nameOf(c)} ({c.id})
                </option>
              ))}
            </select>
          </label>
          <div className="field">
            <label>
              Tool
              <input
                value={tool}
                onChange={(e) => setTool(e.target.value)}
                required
                placeholder="the server's own tool name"
                {...invalidProps(FORM, "tool", error)}
              />
            </label>
            <FieldError form={FORM} field="tool" error={error} />
          </div>
        </div>
        <div className="field">
          <label>
            Arguments (JSON)
            <textarea
              className="code"
              rows={4}
              value={args}
              onChange={(e) => setArgs(e.target.value)}
              spellCheck={false}
              {...invalidProps(FORM, "arguments", error)}
            />
          </label>
          <FieldError form={FORM} field="arguments" error={error} />
        </div>
        <label>
          Lane (its tool rules apply)
          <select value={lane} onChange={(e) => setLane(e.target.value)}>
            <option value="">operator (default)</option>
            {props.teamLanes
              .filter((l) => l !== "operator")
              .map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
          </select>
        </label>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={call.isPending}>
            {call.isPending ? "Calling…" : "Call"}
          </button>
          {call.isPending ? (
            <span className="muted small">waiting for a worker (a minute at most)</span>
          ) : null}
        </div>
      </form>
      <FormAlert error={error} fields={["tool", "arguments"]} />
      {call.data ? (
        <section className="card console-result" aria-label="Result" aria-live="polite">
          <p>
            {call.data.isError ? (
              <span className="badge badge-failed">tool error</span>
            ) : (
              <span className="badge badge-succeeded">ok</span>
            )}{" "}
            <span className="muted small">{call.data.durationMs} ms</span>
          </p>
          <pre className="output json" data-testid="console-result">
            {JSON.stringify(call.data.structuredContent ?? call.data.content, null, 2)}
          </pre>
        </section>
      ) : null}
    </>
  );
}
