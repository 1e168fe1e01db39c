"use client";
/**
 * A CodeMirror 6 editor for one file of a workflow bundle: YAML highlighting, line
 * numbers, completion from the workflow language's vocabulary, and the validator's
 * problems drawn at their line and column. Tab indents; Escape then Tab leaves the editor
 * (CodeMirror's tab focus mode), so the keyboard is never trapped. Its styles are
 * injected with the page's CSP nonce.
 */
import { autocompletion } from "@codemirror/autocomplete";
import { yaml } from "@codemirror/lang-yaml";
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics, type Diagnostic as CmDiagnostic } from "@codemirror/lint";
import { EditorSelection, EditorState, type Text } from "@codemirror/state";
import { EditorView, keymap } from "@codemirror/view";
import { basicSetup } from "codemirror";
import { tags } from "@lezer/highlight";
import { useEffect, useRef } from "react";
import { workflowCompletion } from "./code-editor-completion";
import { templateCompletion, type TemplateHint } from "./template-completion";

export type EditorDiagnostic = {
  severity: "error" | "warning";
  code: string;
  message: string;
  line?: number;
  column?: number;
};

/** Tab indents the selected lines (or inserts two spaces); Shift-Tab outdents. */
const indentKeys = keymap.of([
  {
    key: "Tab",
    run: (view) => {
      const { state } = view;
      if (state.selection.ranges.every((r) => r.empty)) {
        view.dispatch(state.replaceSelection("  "), { scrollIntoView: true, userEvent: "input" });
        return true;
      }
      const changes = [];
      for (const r of state.selection.ranges) {
        for (let n = state.doc.lineAt(r.from).number; n <= state.doc.lineAt(r.to).number; n++)
          changes.push({ from: state.doc.line(n).from, insert: "  " });
      }
      view.dispatch({ changes, userEvent: "input.indent" });
      return true;
    },
    shift: (view) => {
      const { state } = view;
      const changes = [];
      const seen = new Set<number>();
      for (const r of state.selection.ranges) {
        for (let n = state.doc.lineAt(r.from).number; n <= state.doc.lineAt(r.to).number; n++) {
          if (seen.has(n)) continue;
          seen.add(n);
          const line = state.doc.line(n);
          const spaces = /^ {1,2}/.exec(line.text)?.[0].length ?? 0;
          if (spaces) changes.push({ from: line.from, to: line.from + spaces });
        }
      }
      if (changes.length) view.dispatch({ changes, userEvent: "delete.dedent" });
      return true;
    },
  },
]);

const theme = EditorView.theme({
  "&": {
    color: "var(--fg)",
    backgroundColor: "var(--card)",
    border: "1px solid var(--line)",
    borderRadius: "6px",
    fontSize: "0.85rem",
  },
  "&.cm-focused": { outline: "2px solid var(--focus, var(--accent))", outlineOffset: "1px" },
  ".cm-content": {
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace",
    caretColor: "var(--fg)",
  },
  ".cm-gutters": {
    backgroundColor: "var(--bg)",
    color: "var(--muted)",
    borderRight: "1px solid var(--line)",
  },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--accent) 7%, transparent)" },
  ".cm-activeLineGutter": {
    backgroundColor: "color-mix(in srgb, var(--accent) 12%, transparent)",
    color: "var(--fg)",
  },
  "&.cm-focused .cm-cursor": { borderLeftColor: "var(--fg)" },
  "&.cm-focused .cm-selectionBackground, .cm-selectionBackground, ::selection": {
    backgroundColor: "color-mix(in srgb, var(--accent) 28%, transparent)",
  },
  ".cm-tooltip": {
    backgroundColor: "var(--card)",
    color: "var(--fg)",
    border: "1px solid var(--line)",
  },
  ".cm-tooltip-autocomplete ul li[aria-selected]": {
    backgroundColor: "var(--accent)",
    color: "var(--accent-fg, #fff)",
  },
  ".cm-diagnostic-error": { borderLeftColor: "var(--bad)" },
  ".cm-diagnostic-warning": { borderLeftColor: "var(--warn)" },
  ".cm-panels": { backgroundColor: "var(--card)", color: "var(--fg)" },
  ".cm-scroller": { minHeight: "12rem" },
});

/** Syntax colours from the theme's text colours, so each reads on the editor's background in light and in dark. */
const highlight = HighlightStyle.define([
  { tag: [tags.definition(tags.propertyName), tags.propertyName], color: "var(--accent)" },
  { tag: [tags.string, tags.special(tags.string)], color: "var(--ok)" },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: "var(--chart-5)" },
  { tag: [tags.keyword, tags.typeName, tags.meta, tags.labelName], color: "var(--warn)" },
  { tag: tags.comment, color: "var(--muted)", fontStyle: "italic" },
  { tag: [tags.punctuation, tags.separator, tags.operator], color: "var(--fg)" },
  { tag: tags.invalid, color: "var(--bad)" },
]);

/** A diagnostic's line and column as a range of the document: the word there, else the rest of the line. */
const rangeOf = (doc: Text, d: EditorDiagnostic): { from: number; to: number } => {
  if (!d.line) return { from: 0, to: Math.min(doc.length, doc.line(1).to) };
  const line = doc.line(Math.min(Math.max(d.line, 1), doc.lines));
  const from = Math.min(line.from + Math.max((d.column ?? 1) - 1, 0), line.to);
  const word = /^[^\s:,[\]{}]+/.exec(line.text.slice(from - line.from))?.[0].length ?? 0;
  const to = word > 0 ? from + word : line.to > from ? line.to : Math.min(from + 1, doc.length);
  return { from, to: Math.max(to, from) };
};

export function CodeEditor({
  value,
  onChange,
  label,
  nonce,
  diagnostics,
  diagnosticsFor,
  complete = true,
  minLines,
  templates,
}: {
  value: string;
  onChange: (value: string) => void;
  label: string;
  nonce?: string;
  diagnostics?: EditorDiagnostic[];
  /** The text the diagnostics were made for: they are drawn only while the document still is that text. */
  diagnosticsFor?: string;
  complete?: boolean;
  minLines?: number;
  /** the team's step templates, offered after `use_template:` and under its `parameters:` */
  templates?: readonly TemplateHint[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;
  const templateHints = useRef(templates ?? []);
  templateHints.current = templates ?? [];

  useEffect(() => {
    if (!host.current) return;
    // The nonce of the policy this document was loaded with: after a client-side navigation
    // the server renders with a fresh nonce that this document's policy does not know.
    const docNonce = Array.from(
      document.querySelectorAll<HTMLElement>("script[nonce], style[nonce], link[nonce]"),
    )
      .map((e) => e.nonce)
      .find(Boolean);
    const styleNonce = docNonce ?? nonce;
    const v = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          ...(styleNonce ? [EditorView.cspNonce.of(styleNonce)] : []),
          indentKeys,
          basicSetup,
          yaml(),
          syntaxHighlighting(highlight),
          // Long lines wrap: no sideways scrolling box (which a keyboard could not reach) on a phone.
          EditorView.lineWrapping,
          lintGutter(),
          ...(complete
            ? [
                autocompletion({
                  override: [templateCompletion(() => templateHints.current), workflowCompletion],
                }),
              ]
            : []),
          theme,
          EditorView.contentAttributes.of({ "aria-label": label, "aria-multiline": "true" }),
          ...(minLines
            ? [EditorView.theme({ ".cm-content": { minHeight: `${minLines * 1.4}em` } })]
            : []),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // Made once; later values, diagnostics and labels arrive through the effects below.
  }, []);

  // A value set from outside (loading a version): replace the document, keep the cursor in range.
  useEffect(() => {
    const v = view.current;
    if (!v || v.state.doc.toString() === value) return;
    const head = Math.min(v.state.selection.main.head, value.length);
    v.dispatch({
      changes: { from: 0, to: v.state.doc.length, insert: value },
      selection: EditorSelection.cursor(head),
    });
  }, [value]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const doc = v.state.doc;
    if (diagnosticsFor !== undefined && doc.toString() !== diagnosticsFor) return;
    const list: CmDiagnostic[] = (diagnostics ?? []).map((d) => ({
      ...rangeOf(doc, d),
      severity: d.severity,
      source: d.code,
      message: d.line ? d.message : `${d.message} (no line given)`,
    }));
    v.dispatch(setDiagnostics(v.state, list));
  }, [diagnostics, diagnosticsFor]);

  return <div ref={host} className="code-editor" data-testid={`editor-${label}`} />;
}
