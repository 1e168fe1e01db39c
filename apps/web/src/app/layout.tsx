import type { Metadata } from "next";
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
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
