"use client";
/**
 * The run's trace as a waterfall: each span a row, nested under its parent (parentSpanId),
 * with a bar from its start to its end on the run's time axis. Long traces are read a page
 * of spans at a time (oldest first), so a run of 10,000 tool calls does not load them all,
 * and only once the section comes near the screen: below a long list of steps and calls,
 * a page that is never scrolled that far never reads them.
 */
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { ErrorState, Loading } from "~/components/states";
import { useTRPC } from "~/trpc/react";
import styles from "../runs.module.css";
import { treeOrder } from "./timeline-layout";

const PAGE = 200;
/** The most spans the page reads (the server's limit too). */
const MOST = 2000;

/** How far from the screen the trace starts to load. */
const NEAR = "600px 0px";

/** Whether the element has come within NEAR of the screen (true where that cannot be told). */
const useNearScreen = () => {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (near || !element) return;
    if (typeof IntersectionObserver === "undefined") return setNear(true);
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true);
      },
      { rootMargin: NEAR },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [near]);
  return { ref, near };
};

export function SpanWaterfall({ runId, active }: { runId: string; active: boolean }) {
  const { ref, near } = useNearScreen();
  return (
    <div ref={ref}>
      {near ? <Spans runId={runId} active={active} /> : <Loading label="Loading spans…" />}
    </div>
  );
}

function Spans({ runId, active }: { runId: string; active: boolean }): ReactNode {
  const trpc = useTRPC();
  const [limit, setLimit] = useState(PAGE);
  const spans = useQuery({
    ...trpc.runs.spans.queryOptions({ id: runId, limit }),
    placeholderData: keepPreviousData,
    refetchInterval: active ? 3000 : false,
  });
  if (spans.isPending) return <Loading label="Loading spans…" />;
  if (spans.isError)
    return (
      <ErrorState
        title="The spans could not be loaded"
        error={spans.error}
        retry={() => void spans.refetch()}
      />
    );
  if (spans.data.spans.length === 0)
    return <p className="muted">No spans recorded for this run (tracing may be off).</p>;
  const rows = treeOrder(spans.data.spans);
  const now = Date.now();
  const t0 = Math.min(...rows.map((r) => r.span.startTime.getTime()));
  const t1 = Math.max(...rows.map((r) => r.span.endTime?.getTime() ?? now));
  const total = Math.max(t1 - t0, 1);
  return (
    <div data-testid="span-waterfall">
      {rows.map(({ span, depth }) => {
        const start = span.startTime.getTime();
        const end = span.endTime?.getTime() ?? now;
        return (
          <div key={span.spanId} className={styles.spanRow}>
            <span
              className={styles.spanName}
              style={{ paddingLeft: `${Math.min(depth, 12) * 0.8}rem` }}
              title={span.name}
            >
              {span.name}
            </span>
            <span
              className={styles.spanTrack}
              title={`${span.name}: ${end - start} ms${span.status === "error" ? " (error)" : ""}`}
            >
              <span
                className={`${styles.spanBar} ${span.status === "error" ? styles.spanError : ""}`}
                style={{
                  left: `${((start - t0) / total) * 100}%`,
                  width: `${((end - start) / total) * 100}%`,
                }}
              />
            </span>
          </div>
        );
      })}
      {spans.data.truncated && limit < MOST ? (
        <button
          type="button"
          disabled={spans.isFetching}
          onClick={() => setLimit(Math.min(limit + PAGE, MOST))}
        >
          Show {PAGE} more spans
        </button>
      ) : null}
      {spans.data.truncated && limit >= MOST ? (
        <p className={styles.notice}>
          Only the first {MOST.toLocaleString("en-US")} spans are shown; the run has more.
        </p>
      ) : null}
    </div>
  );
}
