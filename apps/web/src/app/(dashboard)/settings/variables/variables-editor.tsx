"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "~/trpc/react";

/** One checkbox per team lane; `label` names the group for assistive technology. */
function LanePicker(props: {
  label: string;
  lanes: string[];
  chosen: string[];
  onChange: (chosen: string[]) => void;
}) {
  return (
    <fieldset className="lane-picker" aria-label={props.label}>
      {props.lanes.map((lane) => (
        <label key={lane} className="inline">
          <input
            type="checkbox"
            checked={props.chosen.includes(lane)}
            onChange={(e) =>
              props.onChange(
                e.target.checked ? [...props.chosen, lane] : props.chosen.filter((l) => l !== lane),
              )
            }
          />{" "}
          {lane}
        </label>
      ))}
    </fieldset>
  );
}

function SecretLanes(props: {
  name: string;
  lanes: string[];
  teamLanes: string[];
  onSave: (lanes: string[]) => void;
  saving: boolean;
}) {
  const [editing, setEditing] = useState<string[] | null>(null);
  if (editing === null) {
    return (
      <>
        <span data-lanes>{props.lanes.length > 0 ? props.lanes.join(", ") : "no lane"}</span>{" "}
        <button type="button" className="link" onClick={() => setEditing(props.lanes)}>
          Change lanes
        </button>
      </>
    );
  }
  return (
    <>
      <LanePicker
        label={`Lanes of ${props.name}`}
        lanes={props.teamLanes}
        chosen={editing}
        onChange={setEditing}
      />
      <button
        type="button"
        className="link"
        disabled={props.saving}
        onClick={() => {
          props.onSave(editing);
          setEditing(null);
        }}
      >
        Save lanes
      </button>
    </>
  );
}

export function VariablesEditor() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.variables.list.queryOptions());
  const teamLanes = useQuery(trpc.variables.lanes.queryOptions()).data ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.variables.list.queryKey() });
  const set = useMutation(trpc.variables.set.mutationOptions({ onSuccess: refresh }));
  const setLanes = useMutation(trpc.variables.setLanes.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.variables.delete.mutationOptions({ onSuccess: refresh }));
  const [form, setForm] = useState({ name: "", value: "", secret: true, lanes: ["operator"] });
  const failed = set.error ?? setLanes.error ?? remove.error;

  return (
    <>
      <form
        className="card var-form"
        onSubmit={(e) => {
          e.preventDefault();
          const { lanes, ...rest } = form;
          set.mutate(form.secret ? { ...rest, lanes } : rest, {
            onSuccess: () => setForm({ ...form, name: "", value: "" }),
          });
        }}
      >
        <label>
          Name
          <input
            value={form.name}
            onChange={(e) => setForm({ ...form, name: e.target.value })}
            placeholder="API_TOKEN"
            required
          />
        </label>
        <label>
          Value
          <input
            type={form.secret ? "password" : "text"}
            autoComplete="off"
            value={form.value}
            onChange={(e) => setForm({ ...form, value: e.target.value })}
          />
        </label>
        <label className="inline">
          <input
            type="checkbox"
            checked={form.secret}
            onChange={(e) => setForm({ ...form, secret: e.target.checked })}
          />{" "}
          Secret
        </label>
        <button type="submit" className="primary" disabled={set.isPending}>
          Save
        </button>
        {form.secret ? (
          <div className="var-lanes">
            <span className="muted small">Open to runs in</span>
            <LanePicker
              label="Open to lanes"
              lanes={teamLanes}
              chosen={form.lanes}
              onChange={(lanes) => setForm({ ...form, lanes })}
            />
          </div>
        ) : null}
      </form>
      {failed ? (
        <p className="error" role="alert">
          {failed.message}
        </p>
      ) : null}
      <table className="table stacked">
        <thead>
          <tr>
            <th>Name</th>
            <th>Value</th>
            <th>Lanes</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {(list.data ?? []).map((v) => (
            <tr key={v.name} data-variable={v.name}>
              <td>
                <code>{v.name}</code>
              </td>
              <td data-label="Value">
                {v.secret ? <span className="badge">secret</span> : <code>{v.value}</code>}
              </td>
              <td data-label="Lanes">
                {v.secret ? (
                  <SecretLanes
                    name={v.name}
                    lanes={v.lanes}
                    teamLanes={teamLanes}
                    saving={setLanes.isPending}
                    onSave={(lanes) => setLanes.mutate({ name: v.name, lanes })}
                  />
                ) : (
                  <span className="muted">every lane</span>
                )}
              </td>
              <td className="right">
                <button
                  type="button"
                  className="link"
                  onClick={() => remove.mutate({ name: v.name })}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data?.length === 0 ? <p className="muted">No variables yet.</p> : null}
    </>
  );
}
