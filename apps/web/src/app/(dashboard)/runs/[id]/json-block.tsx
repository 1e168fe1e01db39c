"use client";
import { useState } from "react";
import { jsonPreview } from "./agent-transcript";

/** Characters of JSON shown before "Show all". */
const PREVIEW_CHARS = 2000;

/** A value as pretty JSON; a long one is cut, with a toggle to see all of it. */
export function JsonBlock({ value, label }: { value: unknown; label: string }) {
  const [all, setAll] = useState(false);
  const preview = jsonPreview(value, PREVIEW_CHARS);
  const text = all ? jsonPreview(value, Number.POSITIVE_INFINITY).text : preview.text;
  return (
    <div className="json-block">
      <div className="json-head muted small">
        {label}
        {preview.cut ? (
          <button type="button" className="link small" onClick={() => setAll(!all)}>
            {all ? "Show less" : "Show all"}
          </button>
        ) : null}
      </div>
      <pre className="output json" data-testid={`json-${label.toLowerCase()}`}>
        {text}
        {preview.cut && !all ? "…" : null}
      </pre>
    </div>
  );
}
