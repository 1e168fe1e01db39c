/**
 * The parsed shape of a workflow as the engine consumes it. Grows with the language; the
 * parser is the only producer.
 */
export type TerminalStatus = "success" | "failure";

export type StepState = {
  kind: "step";
  name: string;
  command: string;
  onSuccess?: string;
  onFailure?: string;
  continueOnError: boolean;
  timeoutMs?: number;
};

export type TerminalState = {
  kind: "terminal";
  name: string;
  status: TerminalStatus;
  message?: string;
};

export type State = StepState | TerminalState;

export type Workflow = {
  name: string;
  description: string;
  lane?: string;
  initial: string;
  states: Map<string, State>;
};
