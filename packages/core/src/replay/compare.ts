/**
 * Compares two attempts of an agent step (a source attempt and its replay, or any two):
 * their tool-call sequences lined up with the first divergence marked (a call is the same
 * call when its tool and its arguments in canonical JSON are), where each pair's arguments
 * and results differ, the answer's line diff, and the tokens, cost and duration of each with
 * the difference. Two attempts match when they made the same calls in the same order and
 * gave the same answer.
 */
import { alignSequences, diffLines, type TextDiffLine } from "./align";
import { canonicalJson } from "./canonical-json";
import { jsonDifferences, type JsonDifference } from "./json-differences";

/** A proxy-recorded tool call of an attempt, in the order the calls started. */
export type ComparedToolCall = {
  tool: string;
  arguments: unknown;
  result: unknown;
  isError: boolean;
  /** in a replay: recorded, live or unmatched */
  replay: string | null;
};

/** What the comparison reads of one attempt. */
export type ComparedAttempt = {
  id: string;
  runId: string;
  stateName: string;
  status: string;
  output: string;
  provider: string | null;
  agentVersion: string | null;
  /** the model the request asked for (its `options.model`) */
  model: string | null;
  inputTokens: number | null;
  outputTokens: number | null;
  costUsd: number | null;
  durationMs: number | null;
  toolCalls: readonly ComparedToolCall[];
};

/** A call in the aligned sequence, with its place in its own attempt's sequence. */
type PlacedToolCall = ComparedToolCall & { position: number };

/** One row of the aligned sequence: a call of each attempt, or of one only. */
type ComparedCallRow = {
  a: PlacedToolCall | null;
  b: PlacedToolCall | null;
  /** same tool and same canonical arguments */
  sameCall: boolean;
  sameResult: boolean;
  arguments: JsonDifference[];
  result: JsonDifference[];
};

/** A measure of each attempt, and b's minus a's (null when either is unknown). */
type Delta = { a: number | null; b: number | null; delta: number | null };

type AttemptComparison = {
  a: Omit<ComparedAttempt, "toolCalls" | "output">;
  b: Omit<ComparedAttempt, "toolCalls" | "output">;
  /** same tool-call sequence and same answer */
  match: boolean;
  sameSequence: boolean;
  sameAnswer: boolean;
  /** the row of `calls` where the sequences first part; null when they do not */
  firstDivergence: number | null;
  calls: ComparedCallRow[];
  answer: { a: string; b: string; lines: TextDiffLine[] };
  inputTokens: Delta;
  outputTokens: Delta;
  costUsd: Delta;
  durationMs: Delta;
};

const callKey = (call: PlacedToolCall) => `${call.tool}\u0000${canonicalJson(call.arguments)}`;

const delta = (a: number | null, b: number | null, digits = 0): Delta => {
  const scale = 10 ** digits;
  return {
    a,
    b,
    delta: a === null || b === null ? null : Math.round((b - a) * scale) / scale,
  };
};

const summary = ({ toolCalls: _calls, output: _output, ...rest }: ComparedAttempt) => rest;

const placed = (calls: readonly ComparedToolCall[]) =>
  calls.map((call, position): PlacedToolCall => ({ ...call, position }));

export const compareAttempts = (a: ComparedAttempt, b: ComparedAttempt): AttemptComparison => {
  const calls = alignSequences(placed(a.toolCalls), placed(b.toolCalls), callKey).map(
    (row): ComparedCallRow => {
      const left = row.a ?? null;
      const right = row.b ?? null;
      const argumentsDiff = left && right ? jsonDifferences(left.arguments, right.arguments) : [];
      const resultDiff = left && right ? jsonDifferences(left.result, right.result) : [];
      return {
        a: left,
        b: right,
        sameCall: row.equal,
        sameResult:
          left !== null &&
          right !== null &&
          left.isError === right.isError &&
          canonicalJson(left.result) === canonicalJson(right.result),
        arguments: argumentsDiff,
        result: resultDiff,
      };
    },
  );
  const divergence = calls.findIndex((row) => !row.sameCall);
  const sameSequence = divergence === -1;
  const sameAnswer = a.output === b.output;
  return {
    a: summary(a),
    b: summary(b),
    match: sameSequence && sameAnswer,
    sameSequence,
    sameAnswer,
    firstDivergence: sameSequence ? null : divergence,
    calls,
    answer: { a: a.output, b: b.output, lines: diffLines(a.output, b.output) },
    inputTokens: delta(a.inputTokens, b.inputTokens),
    outputTokens: delta(a.outputTokens, b.outputTokens),
    costUsd: delta(a.costUsd, b.costUsd, 6),
    durationMs: delta(a.durationMs, b.durationMs),
  };
};
