import type { ReactNode } from "react";

export const metadata = { title: "Trivial page", description: "The framework's floor, for the Lighthouse bench" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: "2rem auto", maxWidth: "24rem", lineHeight: 1.5 }}>{children}</body>
    </html>
  );
}
