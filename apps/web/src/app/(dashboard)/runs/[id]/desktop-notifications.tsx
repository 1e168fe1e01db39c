/**
 * notify.send's desktop notifications of this run (`notify.desktop` events): a server has
 * no desktop, so they are shown here, with their title, message and priority.
 */
import styles from "../runs.module.css";
import type { RunEvent } from "./use-run-events";

type Notification = { state: string; title: string; message: string; priority: string };

const notificationOf = (e: RunEvent): Notification | undefined => {
  if (e.type !== "notify.desktop") return undefined;
  const p = e.payload as Partial<Notification> | null;
  return typeof p?.title === "string" && typeof p.message === "string"
    ? {
        state: String(p.state ?? ""),
        title: p.title,
        message: p.message,
        priority: String(p.priority ?? "default"),
      }
    : undefined;
};

export function DesktopNotifications({ events }: { events: RunEvent[] }) {
  const shown = events.flatMap((e) => {
    const n = notificationOf(e);
    return n ? [{ ...n, seq: e.seq }] : [];
  });
  if (shown.length === 0) return null;
  return (
    <>
      {shown.map((n) => (
        <p
          key={n.seq}
          className={styles.notice}
          data-testid="desktop-notification"
          data-priority={n.priority}
        >
          <strong>{n.title}</strong> {n.message}{" "}
          <span className="muted small">
            (notify.send from {n.state}, priority {n.priority})
          </span>
        </p>
      ))}
    </>
  );
}
