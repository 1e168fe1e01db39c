"use client";
/**
 * An open `input` wait as a banner: a run a schedule or a webhook started without a required
 * input waits here for a person to fill it in (where AWF would prompt in a terminal). The
 * form is the start form's, for the inputs the run was not given (type, description, enum
 * choices, pattern, default); the server checks the answer as it checks a start's inputs
 * and a refusal shows at the field it names. Then the run starts with them.
 */
import { useMutation } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { InputForm, type InputDefinition } from "~/components/input-form";
import { LocalTime } from "~/components/local-time";
import type { AppRouter } from "~/server/trpc/root";
import { useTRPC } from "~/trpc/react";
import { WaitCard, WaitFrom, WaitWho } from "./wait-card";

type WaitView = inferRouterOutputs<AppRouter>["waits"]["list"]["waits"][number];

const askedOf = (wait: WaitView): { inputs: InputDefinition[]; missing: string[] } => {
  const detail = (wait.detail ?? {}) as { inputs?: InputDefinition[]; missing?: string[] };
  return { inputs: detail.inputs ?? [], missing: detail.missing ?? [] };
};

export function InputWaitBanner({
  wait,
  onAnswered,
  showRun = false,
}: {
  wait: WaitView;
  onAnswered: () => void;
  showRun?: boolean;
}) {
  const trpc = useTRPC();
  const answer = useMutation(trpc.waits.answer.mutationOptions({ onSettled: onAnswered }));
  const { inputs, missing } = askedOf(wait);
  const location = (
    answer.error?.shape?.data as { location?: { path?: string } | null } | undefined
  )?.location;
  return (
    <WaitCard wait={wait}>
      <p className="small">
        <WaitFrom wait={wait} show={showRun} />
        This run was started without {missing.length === 1 ? "the input" : "the inputs"}{" "}
        <strong>{missing.join(", ")}</strong>, which the workflow requires. It starts once they are
        filled in. Waiting since <LocalTime value={wait.createdAt} />
        {wait.expiresAt ? (
          <>
            ; expires <LocalTime value={wait.expiresAt} /> (the run then fails)
          </>
        ) : null}
        .
      </p>
      {wait.mayAnswer ? (
        <InputForm
          inputs={inputs}
          label="Fill in the run's inputs"
          submitLabel="Start the run with these inputs"
          pending={answer.isPending}
          serverError={
            answer.error ? { message: answer.error.message, path: location?.path } : null
          }
          onSubmit={(values) => answer.mutate({ id: wait.id, inputs: values })}
        />
      ) : (
        <WaitWho wait={wait} />
      )}
    </WaitCard>
  );
}
