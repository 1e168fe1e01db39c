"use client";
/**
 * The Team page's form: the team's name and its limit on runs at once (empty: no limit of
 * its own). Every member sees them; admins change them.
 */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "~/trpc/react";
import {
  FieldError,
  FormAlert,
  formError,
  invalidProps,
  SaveActions,
} from "../connectors/form-parts";

const FORM = "team";
const FIELDS = ["name", "maxConcurrentRuns"] as const;

export function TeamForm(props: { canAdmin: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const settings = useQuery(trpc.teams.settings.queryOptions());
  const [name, setName] = useState("");
  const [limit, setLimit] = useState("");
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!settings.data) return;
    setName(settings.data.name);
    setLimit(
      settings.data.maxConcurrentRuns === null ? "" : String(settings.data.maxConcurrentRuns),
    );
  }, [settings.data]);
  const update = useMutation(
    trpc.teams.update.mutationOptions({
      onSuccess: async () => {
        setSaved(true);
        await queryClient.invalidateQueries({ queryKey: trpc.teams.settings.queryKey() });
        // The header's team switcher shows the name too.
        await queryClient.invalidateQueries({ queryKey: trpc.teams.mine.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.teams.current.queryKey() });
      },
    }),
  );
  const error = formError(update.error);

  if (settings.isPending) return <p className="muted">Loading…</p>;
  if (settings.error)
    return (
      <p className="error" role="alert">
        {settings.error.message}
      </p>
    );
  return (
    <form
      className="card settings-form"
      aria-label="Team settings"
      onSubmit={(e) => {
        e.preventDefault();
        setSaved(false);
        update.mutate({ name, maxConcurrentRuns: limit.trim() === "" ? null : Number(limit) });
      }}
    >
      <div className="form-grid">
        <div className="field">
          <label>
            Name
            <input
              value={name}
              onChange={(e) => setName(e.target.value)}
              readOnly={!props.canAdmin}
              required
              maxLength={80}
              {...invalidProps(FORM, "name", error)}
            />
          </label>
          <FieldError form={FORM} field="name" error={error} />
        </div>
        <div className="field">
          <label>
            Runs at once
            <input
              type="number"
              inputMode="numeric"
              min={1}
              step={1}
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
              readOnly={!props.canAdmin}
              placeholder="no limit"
              aria-describedby="team-limit-help"
              {...invalidProps(FORM, "maxConcurrentRuns", error)}
            />
          </label>
          <p id="team-limit-help" className="muted small">
            Empty: no limit of the team&apos;s own.
          </p>
          <FieldError form={FORM} field="maxConcurrentRuns" error={error} />
        </div>
      </div>
      <FormAlert error={error} fields={FIELDS} />
      {props.canAdmin ? <SaveActions pending={update.isPending} saved={saved} /> : null}
    </form>
  );
}
