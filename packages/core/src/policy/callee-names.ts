/**
 * How a `call_workflow` name is looked up among the team's workflows. As in AWF, a workflow
 * from a pack finds a short name (`helper`) in its own pack first (`<pack>/helper`), then
 * among the team's workflows; a name with a pack (`other-pack/helper`) and every name in the
 * team's own workflows are looked up as written.
 */

/** The team workflow names to try for `written`, in order, from a workflow of `callerPack`. */
export const calleeNames = (callerPack: string | null | undefined, written: string): string[] =>
  callerPack && !written.includes("/") ? [`${callerPack}/${written}`, written] : [written];

/** The first of calleeNames that `exists` says the team has. */
export const resolveCalleeName = async (
  callerPack: string | null | undefined,
  written: string,
  exists: (name: string) => boolean | Promise<boolean>,
): Promise<string | undefined> => {
  for (const name of calleeNames(callerPack, written)) if (await exists(name)) return name;
  return undefined;
};
