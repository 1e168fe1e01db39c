import type { Metadata } from "next";
import { cookies } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import "./globals.css";

export const metadata: Metadata = {
  title: "Switchyard",
  description: "A team control plane for AI-agent workflows",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request, so each carries the nonce of its own CSP (src/proxy.ts).
  await connection();
  // The header's theme choice, on <html> from the first byte: no flash, no inline script.
  const theme = (await cookies()).get("theme")?.value;
  return (
    <html lang="en" data-theme={theme === "light" || theme === "dark" ? theme : undefined}>
      <body>{children}</body>
    </html>
  );
}
