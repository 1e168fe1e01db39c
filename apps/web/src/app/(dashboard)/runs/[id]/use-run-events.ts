"use client";
/**
 * The run's event stream (/api/runs/{id}/events) for the run page: every stored event once
 * (the browser resumes with Last-Event-ID after a drop), each heard by its name (its type),
 * the output of running steps as it streams (`step.output`), and a call to `onChange`
 * whenever a worker records something, so the page refetches the run. Closed when the
 * stream ends (the run ended, or the session did). Updates are applied once per frame.
 */
import { useEffect, useRef, useState } from "react";
import { RUN_EVENT_TYPES } from "@switchyard/core/run-events";

export type RunEvent = { seq: number; type: string; payload: unknown; at: string };
export type LiveOutput = { stdout: string; stderr: string; truncated: boolean };

/** Events kept in memory for the list (the oldest are dropped first; the download has all). */
const KEEP_EVENTS = 2000;

type OutputPayload = { stepRunId?: string; stream?: string; text?: string; truncated?: boolean };

export function useRunEvents(id: string, onChange: () => void) {
  const [live, setLive] = useState(false);
  const [events, setEvents] = useState<RunEvent[]>([]);
  const [output, setOutput] = useState<Record<string, LiveOutput>>({});
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);

  useEffect(() => {
    const source = new EventSource(`/api/runs/${id}/events`);
    let pending: RunEvent[] = [];
    let frame: number | undefined;
    const apply = () => {
      frame = undefined;
      const batch = pending;
      pending = [];
      setEvents((prev) => {
        const next = prev.concat(batch);
        return next.length > KEEP_EVENTS ? next.slice(next.length - KEEP_EVENTS) : next;
      });
      const chunks = batch.filter((e) => e.type === "step.output");
      if (chunks.length > 0) {
        setOutput((prev) => {
          const next = { ...prev };
          for (const e of chunks) {
            const p = e.payload as OutputPayload;
            if (!p.stepRunId) continue;
            const cur = next[p.stepRunId] ?? { stdout: "", stderr: "", truncated: false };
            next[p.stepRunId] = {
              stdout: p.stream === "stdout" ? cur.stdout + (p.text ?? "") : cur.stdout,
              stderr: p.stream === "stderr" ? cur.stderr + (p.text ?? "") : cur.stderr,
              truncated: cur.truncated || p.truncated === true,
            };
          }
          return next;
        });
      }
      changed.current();
    };
    source.onopen = () => setLive(true);
    const received = (message: MessageEvent<string>) => {
      try {
        pending.push(JSON.parse(message.data) as RunEvent);
      } catch {
        return;
      }
      frame ??= requestAnimationFrame(apply);
    };
    // Each stored event arrives under its type's name; one of a type outside the list comes unnamed.
    for (const type of RUN_EVENT_TYPES) source.addEventListener(type, received);
    source.onmessage = received;
    source.addEventListener("update", () => changed.current());
    source.addEventListener("end", () => {
      source.close();
      setLive(false);
      changed.current();
    });
    source.onerror = () => setLive(false);
    return () => {
      if (frame !== undefined) cancelAnimationFrame(frame);
      source.close();
    };
  }, [id]);
  return { live, events, output };
}
