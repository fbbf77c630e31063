import { NextIntlClientProvider } from "next-intl";
import { getMessages } from "next-intl/server";
import type { ReactNode } from "react";
import { CLIENT_NAMESPACES, pickNamespaces, type ClientPart } from "@/lib/i18n/client-namespaces";

/**
 * The messages the client components of one part of the app translate, and nothing else (docs/adr/0092):
 * the provider's messages travel in every page's serialized payload, so the whole catalogue would cost
 * each page tens of kilobytes. A nested provider replaces its parent's messages for what it wraps.
 */
export async function ClientMessages({ of, children }: { of: ClientPart; children: ReactNode }) {
  const messages = await getMessages();
  return <NextIntlClientProvider messages={pickNamespaces(messages, CLIENT_NAMESPACES[of])}>{children}</NextIntlClientProvider>;
}

/** A page or layout whose whole output (every return) sits inside its part's provider. */
export function withClientMessages<P extends object>(of: ClientPart, Render: (props: P) => Promise<ReactNode> | ReactNode) {
  function WithClientMessages(props: P) {
    return (
      <ClientMessages of={of}>
        <Render {...props} />
      </ClientMessages>
    );
  }
  return WithClientMessages;
}
