/**
 * An operation state's attempt on the run page: the operation, what it asked and what it
 * got (`POST https://… → 201`, one line per request) and its outputs, as the worker
 * stored them (scrubbed).
 */
import styles from "../runs.module.css";

const pretty = (output: string) => {
  try {
    return JSON.stringify(JSON.parse(output), null, 2);
  } catch {
    return output;
  }
};

export function OperationStep({
  step,
}: {
  step: { provider: string | null; stdout: string; output: string };
}) {
  return (
    <div className={styles.operation} data-testid="operation-step">
      <p className="small">
        <code data-testid="operation-name">{step.provider ?? "operation"}</code>
      </p>
      {step.stdout ? (
        <pre className="small" data-testid="operation-requests">
          {step.stdout}
        </pre>
      ) : null}
      {step.output ? (
        <details>
          <summary className="small">Outputs</summary>
          <pre className="small" data-testid="operation-outputs">
            {pretty(step.output)}
          </pre>
        </details>
      ) : null}
    </div>
  );
}
