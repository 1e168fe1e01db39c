"use client";
/**
 * The code editor (code-editor.tsx), loaded after the page it is on: CodeMirror and the
 * workflow language's completion are most of what the editing pages ship, and the rest of
 * such a page (the graph, the versions, the form around it) need not wait for them.
 */
import dynamic from "next/dynamic";
import { Loading } from "./states";

export const CodeEditor = dynamic(() => import("./code-editor").then((m) => m.CodeEditor), {
  ssr: false,
  loading: () => <Loading label="Loading the editor…" />,
});
