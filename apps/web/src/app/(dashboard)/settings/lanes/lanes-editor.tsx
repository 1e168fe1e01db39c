"use client";
/**
 * The Lanes page's body: the team's lanes with who may save and start workflows in each,
 * which tool calls of their runs need approval, and what names each; admins add lanes,
 * change them, set their approval rules and remove the ones nothing names.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState } from "react";
import type { AppRouter } from "~/server/trpc/root";
import { useTRPC } from "~/trpc/react";
import { ApprovalRulesEditor, approvalSummary } from "./approval-rules-editor";
import {
  FieldError,
  FormAlert,
  FormFooter,
  formError,
  invalidProps,
} from "../connectors/form-parts";

type Lane = inferRouterOutputs<AppRouter>["lanes"]["list"][number];
type Role = Lane["saveRoles"][number];

const ROLES: readonly Role[] = ["owner", "admin", "member", "viewer"];
const FORM = "lane";
const FIELDS = ["name", "description", "saveRoles", "startRoles"] as const;

function RoleChoice(props: {
  legend: string;
  chosen: Role[];
  fixed: boolean;
  onChange: (roles: Role[]) => void;
  invalid: Record<string, unknown>;
}) {
  return (
    <fieldset className="choice-group" {...props.invalid}>
      <legend>{props.legend}</legend>
      {ROLES.map((role) => (
        <label key={role} className="inline">
          <input
            type="checkbox"
            checked={props.chosen.includes(role)}
            disabled={props.fixed}
            onChange={(e) =>
              props.onChange(
                e.target.checked ? [...props.chosen, role] : props.chosen.filter((r) => r !== role),
              )
            }
          />{" "}
          {role}
        </label>
      ))}
    </fieldset>
  );
}

/** Adds a lane, or changes one (its name stays; operator's roles stay owner and admin). */
function LaneForm(props: { editing?: Lane; onDone: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.lanes.list.queryKey() });
    props.onDone();
  };
  const create = useMutation(trpc.lanes.create.mutationOptions({ onSuccess: done }));
  const update = useMutation(trpc.lanes.update.mutationOptions({ onSuccess: done }));
  const { editing } = props;
  const [name, setName] = useState(editing?.name ?? "");
  const [description, setDescription] = useState(editing?.description ?? "");
  const [saveRoles, setSaveRoles] = useState<Role[]>(editing?.saveRoles ?? ["owner", "admin"]);
  const [startRoles, setStartRoles] = useState<Role[]>(
    editing?.startRoles ?? ["owner", "admin", "member"],
  );
  const error = formError(create.error ?? update.error);
  const fixed = editing?.name === "operator";
  const title = editing ? `Change lane ${editing.name}` : "Add a lane";

  return (
    <form
      className="card settings-form"
      aria-label={title}
      onSubmit={(e) => {
        e.preventDefault();
        const fields = { description, saveRoles, startRoles };
        if (editing) update.mutate({ name: editing.name, ...fields });
        else create.mutate({ name, ...fields });
      }}
    >
      <h3>{title}</h3>
      <div className="form-grid">
        <div className="field">
          <label>
            Name
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              readOnly={editing !== undefined}
              required
              pattern="[a-z][a-z0-9_\-]{0,31}"
              title="1 to 32 lower-case letters, digits, _ or -, starting with a letter"
              placeholder="review"
              {...invalidProps(FORM, "name", error)}
            />
          </label>
          <FieldError form={FORM} field="name" error={error} />
        </div>
        <div className="field">
          <label>
            Description
            <input
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              {...invalidProps(FORM, "description", error)}
            />
          </label>
          <FieldError form={FORM} field="description" error={error} />
        </div>
      </div>
      <RoleChoice
        legend="Who may save workflows in it"
        chosen={saveRoles}
        fixed={fixed}
        onChange={setSaveRoles}
        invalid={invalidProps(FORM, "saveRoles", error)}
      />
      <FieldError form={FORM} field="saveRoles" error={error} />
      <RoleChoice
        legend="Who may start runs in it"
        chosen={startRoles}
        fixed={fixed}
        onChange={setStartRoles}
        invalid={invalidProps(FORM, "startRoles", error)}
      />
      <FieldError form={FORM} field="startRoles" error={error} />
      {fixed ? (
        <p className="muted small">
          The operator lane is for owners and admins only; its roles stay as they are.
        </p>
      ) : null}
      <FormFooter
        error={error}
        fields={FIELDS}
        submit={editing ? "Save changes" : "Add lane"}
        pending={create.isPending || update.isPending}
        onCancel={props.onDone}
      />
    </form>
  );
}

const usedByText = (usedBy: Lane["usedBy"]) =>
  [
    usedBy.workflows.length > 0 ? `workflows: ${usedBy.workflows.join(", ")}` : "",
    usedBy.connectors.length > 0 ? `connectors: ${usedBy.connectors.join(", ")}` : "",
    usedBy.secrets.length > 0 ? `secrets: ${usedBy.secrets.join(", ")}` : "",
  ].filter((t) => t !== "");

export function LanesEditor(props: { canAdmin: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.lanes.list.queryOptions());
  const remove = useMutation(
    trpc.lanes.remove.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.lanes.list.queryKey() }),
    }),
  );
  const [open, setOpen] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [rulesOf, setRulesOf] = useState<string | null>(null);
  const editing = list.data?.find((l) => l.name === open);
  const ruling = list.data?.find((l) => l.name === rulesOf);

  return (
    <>
      {props.canAdmin ? (
        <div className="page-actions">
          <button
            type="button"
            onClick={() => setOpen(open === "" ? null : "")}
            aria-expanded={open === ""}
          >
            Add a lane
          </button>
        </div>
      ) : null}
      {open === "" ? <LaneForm key="new" onDone={() => setOpen(null)} /> : null}
      {editing ? (
        <LaneForm key={editing.name} editing={editing} onDone={() => setOpen(null)} />
      ) : null}
      {ruling ? (
        <ApprovalRulesEditor
          key={ruling.name}
          lane={ruling.name}
          rules={ruling.approvalRules}
          onDone={() => setRulesOf(null)}
        />
      ) : null}
      <FormAlert error={formError(remove.error)} fields={[]} />
      <div className="table-scroll">
        <table className="table stack-table" aria-label="Lanes">
          <thead>
            <tr>
              <th>Lane</th>
              <th>Save</th>
              <th>Start</th>
              <th>Needs approval</th>
              <th>Used by</th>
              {props.canAdmin ? <th /> : null}
            </tr>
          </thead>
          <tbody>
            {(list.data ?? []).map((lane) => {
              const used = usedByText(lane.usedBy);
              const held = approvalSummary(lane.approvalRules);
              return (
                <tr key={lane.name} data-lane={lane.name}>
                  <td>
                    <strong>{lane.name}</strong>{" "}
                    {lane.builtIn ? <span className="badge">built in</span> : null}
                    {lane.description ? (
                      <div className="muted small">{lane.description}</div>
                    ) : null}
                  </td>
                  <td data-label="Save" data-save-roles>
                    {lane.saveRoles.join(", ") || "nobody"}
                  </td>
                  <td data-label="Start" data-start-roles>
                    {lane.startRoles.join(", ") || "nobody"}
                  </td>
                  <td className="small" data-label="Needs approval" data-approval-rules>
                    {held.length > 0 ? (
                      held.map((h, i) => <div key={i}>{h}</div>)
                    ) : (
                      <span className="muted">no tool call</span>
                    )}
                  </td>
                  <td className="small" data-label="Used by" data-used-by>
                    {used.length > 0 ? (
                      used.map((u) => <div key={u}>{u}</div>)
                    ) : (
                      <span className="muted">nothing</span>
                    )}
                  </td>
                  {props.canAdmin ? (
                    <td className="right" data-actions>
                      <button type="button" className="link" onClick={() => setOpen(lane.name)}>
                        Edit<span className="visually-hidden"> {lane.name}</span>
                      </button>{" "}
                      <button
                        type="button"
                        className="link"
                        aria-expanded={rulesOf === lane.name}
                        onClick={() => setRulesOf(rulesOf === lane.name ? null : lane.name)}
                      >
                        Approval rules<span className="visually-hidden"> of {lane.name}</span>
                      </button>{" "}
                      {lane.builtIn ? null : removing === lane.name ? (
                        <>
                          <button
                            type="button"
                            className="link danger"
                            disabled={remove.isPending}
                            onClick={() =>
                              remove.mutate(
                                { name: lane.name },
                                { onSettled: () => setRemoving(null) },
                              )
                            }
                          >
                            Remove {lane.name} for good
                          </button>{" "}
                          <button type="button" className="link" onClick={() => setRemoving(null)}>
                            Keep it
                          </button>
                        </>
                      ) : (
                        <button
                          type="button"
                          className="link"
                          onClick={() => {
                            remove.reset();
                            setRemoving(lane.name);
                          }}
                        >
                          Remove<span className="visually-hidden"> {lane.name}</span>
                        </button>
                      )}
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}
