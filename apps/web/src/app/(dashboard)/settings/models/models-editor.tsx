"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";
import type { AppRouter } from "~/server/trpc/root";
import type { inferRouterOutputs } from "@trpc/server";

type ModelAccess = inferRouterOutputs<AppRouter>["models"]["list"][number];
type SetInput = {
  vendor: ModelAccess["vendor"];
  apiKey?: string | null;
  endpoint?: string | null;
  allowedEndpoints?: string[];
};

const VENDOR_NAMES: Record<ModelAccess["vendor"], string> = {
  anthropic: "Anthropic",
  openai: "OpenAI",
  gemini: "Gemini",
  openai_compatible: "OpenAI-compatible",
};

/** The key as the list knows it: set with its last four characters, or not. */
const keyText = (m: ModelAccess) => (m.keySet ? `set ••••${m.keyHint ?? ""}` : "not set");

/** Local servers people run beside the worker, offered as one-click examples. */
const LOCAL_ENDPOINTS = [
  { name: "Ollama", url: "http://127.0.0.1:11434/v1" },
  { name: "vLLM", url: "http://127.0.0.1:8000/v1" },
] as const;

function EndpointCell({
  access,
  demoEndpoint,
}: {
  access: ModelAccess;
  demoEndpoint: string | null;
}) {
  if (access.vendor === "openai_compatible") {
    return access.allowedEndpoints.length > 0 ? (
      <ul className="model-endpoints">
        {access.allowedEndpoints.map((e) => (
          <li key={e}>
            <code>{e}</code>
            {e === demoEndpoint ? (
              <>
                {" "}
                <span
                  className="badge badge-demo"
                  data-testid="demo-model"
                  title="Switchyard's built-in demo model: a recorded session, not a real model"
                >
                  demo model
                </span>
              </>
            ) : null}
          </li>
        ))}
      </ul>
    ) : (
      <span className="muted">none allowed</span>
    );
  }
  return access.endpoint ? (
    <code>{access.endpoint}</code>
  ) : (
    <span className="muted">default ({access.defaultEndpoint})</span>
  );
}

/** One vendor's form: a new key (empty keeps the stored one) and its endpoint or allowed endpoints. */
function VendorForm(props: {
  access: ModelAccess;
  saving: boolean;
  onSave: (input: SetInput) => void;
  onCancel: () => void;
}) {
  const { access } = props;
  const compatible = access.vendor === "openai_compatible";
  const [apiKey, setApiKey] = useState("");
  const [endpoint, setEndpoint] = useState(access.endpoint ?? "");
  const [allowed, setAllowed] = useState(access.allowedEndpoints.join("\n"));
  // The stored key never goes to an endpoint it was not given for: a new one needs the key again.
  const allowedNow = allowed
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const moved =
    access.keySet &&
    (compatible
      ? allowedNow.some((e) => !access.allowedEndpoints.includes(e.replace(/\/+$/, "")))
      : endpoint.trim().replace(/\/+$/, "") !== (access.endpoint ?? ""));
  return (
    <form
      className="card password-form model-form"
      aria-label={`${VENDOR_NAMES[access.vendor]} access`}
      onSubmit={(e) => {
        e.preventDefault();
        const key = apiKey.trim() === "" ? {} : { apiKey };
        props.onSave(
          compatible
            ? { vendor: access.vendor, ...key, allowedEndpoints: allowedNow }
            : { vendor: access.vendor, ...key, endpoint: endpoint.trim() === "" ? null : endpoint },
        );
      }}
    >
      <strong>{VENDOR_NAMES[access.vendor]}</strong>
      <label>
        {compatible ? "Default API key (optional)" : "API key"}
        <input
          type="password"
          autoComplete="off"
          value={apiKey}
          onChange={(e) => setApiKey(e.target.value)}
          placeholder={
            access.keySet && !moved ? `${keyText(access)}; leave empty to keep it` : "paste the key"
          }
          required={!compatible && (!access.keySet || moved)}
        />
      </label>
      {moved ? (
        <p className="muted small" role="note">
          A new endpoint does not get the stored key: paste the key for it
          {compatible ? ", or the default key is dropped" : ""}.
        </p>
      ) : null}
      {compatible ? (
        <label>
          Allowed endpoints, one per line
          <textarea
            rows={3}
            value={allowed}
            onChange={(e) => setAllowed(e.target.value)}
            placeholder={"http://127.0.0.1:11434/v1\nhttps://llm.example.com/v1"}
            required
          />
        </label>
      ) : null}
      {compatible ? (
        <p className="muted small">
          A model on the worker&apos;s machine:{" "}
          {LOCAL_ENDPOINTS.map((l, i) => (
            <span key={l.url}>
              {i > 0 ? ", " : null}
              <button
                type="button"
                className="link"
                disabled={allowedNow.includes(l.url)}
                onClick={() => setAllowed(allowedNow.concat(l.url).join("\n"))}
              >
                add {l.name} ({l.url})
              </button>
            </span>
          ))}
          . No key is needed for a server that asks for none.
        </p>
      ) : (
        <label>
          Endpoint
          <input
            value={endpoint}
            onChange={(e) => setEndpoint(e.target.value)}
            placeholder={access.defaultEndpoint ?? ""}
          />
        </label>
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={props.saving}>
          Save
        </button>
        {compatible && access.keySet ? (
          <button
            type="button"
            className="link"
            disabled={props.saving}
            onClick={() => props.onSave({ vendor: access.vendor, apiKey: null })}
          >
            Drop the key
          </button>
        ) : null}
        <button type="button" className="link" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** `demoEndpoint`: the built-in demo model's address, labelled as the demo where it is allowed. */
export function ModelsEditor({ demoEndpoint }: { demoEndpoint: string | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.models.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.models.list.queryKey() });
  const [editing, setEditing] = useState<ModelAccess["vendor"] | null>(null);
  const set = useMutation(trpc.models.set.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.models.remove.mutationOptions({ onSuccess: refresh }));
  const failed = set.error ?? remove.error;
  const chosen = list.data?.find((m) => m.vendor === editing);

  return (
    <>
      <div className="table-scroll">
        <table className="table">
          <thead>
            <tr>
              <th>Vendor</th>
              <th>API key</th>
              <th>Endpoint</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {(list.data ?? []).map((m) => (
              <tr key={m.vendor} data-vendor={m.vendor}>
                <td>
                  {VENDOR_NAMES[m.vendor]} <span className="muted small">{m.vendor}</span>
                </td>
                <td data-key>{keyText(m)}</td>
                <td>
                  {m.configured ? (
                    <EndpointCell access={m} demoEndpoint={demoEndpoint} />
                  ) : (
                    <span className="muted">not configured</span>
                  )}
                </td>
                <td className="right">
                  <button
                    type="button"
                    className="link"
                    onClick={() => {
                      set.reset();
                      setEditing(m.vendor);
                    }}
                  >
                    {m.configured ? "Edit" : "Set up"}
                  </button>{" "}
                  {m.configured ? (
                    <button
                      type="button"
                      className="link"
                      disabled={remove.isPending}
                      onClick={() => remove.mutate({ vendor: m.vendor })}
                    >
                      Remove
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {failed ? (
        <p className="error" role="alert">
          {failed.message}
        </p>
      ) : null}
      {chosen ? (
        <VendorForm
          key={chosen.vendor}
          access={chosen}
          saving={set.isPending}
          onSave={(input) => set.mutate(input, { onSuccess: () => setEditing(null) })}
          onCancel={() => setEditing(null)}
        />
      ) : null}
    </>
  );
}
