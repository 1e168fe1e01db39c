"use client";
/**
 * The controls the team's versioned libraries (step templates, skills) share: a delete that
 * asks first and says saved workflows keep their copy, the row of an empty list, and the
 * Check / Save buttons with the version a save made.
 */
import type { ReactNode } from "react";

export function DeletePinnedButton(props: { what: string; name: string; onDelete: () => void }) {
  return (
    <button
      type="button"
      className="link"
      onClick={() => {
        if (confirm(`Delete ${props.what} ${props.name}? Saved workflows keep their copy.`))
          props.onDelete();
      }}
    >
      Delete
    </button>
  );
}

export function EmptyRow(props: { columns: number; children: ReactNode }) {
  return (
    <tr>
      <td colSpan={props.columns} className="muted">
        {props.children}
      </td>
    </tr>
  );
}

export function CheckAndSave(props: {
  canCheck: boolean;
  onCheck: () => void;
  saving: boolean;
  saved: { name: string; version: number } | undefined;
}) {
  return (
    <div>
      <button type="button" disabled={!props.canCheck} onClick={props.onCheck}>
        Check
      </button>{" "}
      <button type="submit" className="primary" disabled={props.saving}>
        Save
      </button>
      {props.saved ? (
        <span className="ok-text" role="status">
          {" "}
          Saved {props.saved.name} as version {props.saved.version}.
        </span>
      ) : null}
    </div>
  );
}
