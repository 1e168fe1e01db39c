/**
 * A running step's output for live views: the scrubbed pieces its capture keeps, coalesced
 * (one event every ~250 ms, or sooner at 4 KiB) into `step.output` run events, so a viewer
 * sees output while the step runs and a late one replays it from the event log. It carries
 * exactly what the step's stored output keeps: nothing past the cap (the last event of a
 * stream says `truncated`), never a secret (the capture scrubbed it).
 */
export type StepOutputChunk = { stream: "stdout" | "stderr"; text: string; truncated?: true };
export type StepOutputAttempt = { stepRunId: string; state: string; attempt: number };

const INTERVAL_MS = 250;
const MAX_BYTES = 4096;

export const stepOutputStream = (emit: (chunk: StepOutputChunk) => void) => {
  const pending = { stdout: "", stderr: "" };
  const truncated = { stdout: false, stderr: false };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    for (const stream of ["stdout", "stderr"] as const) {
      if (pending[stream] === "" && !truncated[stream]) continue;
      emit({
        stream,
        text: pending[stream],
        ...(truncated[stream] ? { truncated: true as const } : {}),
      });
      pending[stream] = "";
      truncated[stream] = false;
    }
  };
  const kept = (stream: "stdout" | "stderr") => (text: string, full: boolean) => {
    pending[stream] += text;
    if (full) truncated[stream] = true;
    if (full || Buffer.byteLength(pending[stream]) >= MAX_BYTES) flush();
    else timer ??= setTimeout(flush, INTERVAL_MS);
  };
  return { stdout: kept("stdout"), stderr: kept("stderr"), close: flush };
};
