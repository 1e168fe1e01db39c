/**
 * The fields a state's result offers to templates (`states.<name>.<Field>`) and how a
 * written field is matched against them: case and underscores do not count.
 * Reference checks, the run scope and shell variable names all read them from here.
 */
export const STATE_FIELDS = [
  "Output",
  "Stdout",
  "Stderr",
  "ExitCode",
  "Status",
  "Response",
  "JSON",
  "TokensUsed",
  "TokensInput",
  "TokensOutput",
  "TokensEstimated",
  "Attempts",
  "Error",
  "Conversation",
];

export const normaliseField = (f: string) => f.replace(/_/g, "").toLowerCase();
