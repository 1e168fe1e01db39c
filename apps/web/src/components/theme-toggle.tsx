"use client";
/**
 * The header's light/dark switch. The choice lives in the `theme` cookie, which the root
 * layout reads to put `data-theme` on <html> in the server's HTML, so the page never
 * flashes the other theme and no inline script is needed (the CSP allows none without
 * its nonce). "system" (no cookie) follows prefers-color-scheme.
 */
import { useState } from "react";

export type ThemeChoice = "system" | "light" | "dark";

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: "light", light: "dark", dark: "system" };
const LABEL: Record<ThemeChoice, string> = {
  system: "Theme: system",
  light: "Theme: light",
  dark: "Theme: dark",
};

export function ThemeToggle({ initial }: { initial: ThemeChoice }) {
  const [choice, setChoice] = useState<ThemeChoice>(initial);
  const change = () => {
    const next = NEXT[choice];
    setChoice(next);
    const root = document.documentElement;
    if (next === "system") {
      delete root.dataset.theme;
      document.cookie = "theme=; path=/; max-age=0; samesite=lax";
    } else {
      root.dataset.theme = next;
      document.cookie = `theme=${next}; path=/; max-age=31536000; samesite=lax`;
    }
  };
  return (
    <button
      type="button"
      className="theme-toggle"
      onClick={change}
      aria-label={`${LABEL[choice]} (switch to ${NEXT[choice]})`}
      title={`Switch to ${NEXT[choice]}`}
    >
      <span aria-hidden="true">{choice === "dark" ? "☾" : choice === "light" ? "☀" : "◐"}</span>{" "}
      {choice}
    </button>
  );
}
