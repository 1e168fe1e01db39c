"use client";
/**
 * A secret the server shows once (a signing secret, a webhook secret), with what it is for,
 * until the person says they have copied it.
 */
import type { ReactNode } from "react";

export function SecretOnce(props: {
  secret: string;
  testId: string;
  onDone: () => void;
  children: ReactNode;
}) {
  return (
    <div className="card wrap-anywhere" role="status">
      {props.children}
      <pre className="output" data-testid={props.testId}>
        {props.secret}
      </pre>
      <button type="button" className="link" onClick={props.onDone}>
        I have copied it
      </button>
    </div>
  );
}
