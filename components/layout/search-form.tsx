"use client";

import { useRouter } from "next/navigation";
import { useTransition, type FormEvent, type FormHTMLAttributes } from "react";
import { usePendingNavigation } from "@/components/ui/link";

/**
 * A GET form to /search routed by the app router (docs/adr/0151): what `next/form` did for the top bar's
 * and the search page's forms — the fields become the query string and the router navigates, no full load —
 * without its 1 KB gzip on every page's first load. Before hydration it is a plain GET form. Like the
 * forms it replaces it does not prefetch /search; the top bar shows while the page is fetched.
 */
export function SearchForm({ children, ...props }: Omit<FormHTMLAttributes<HTMLFormElement>, "action" | "method" | "onSubmit">) {
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  usePendingNavigation(navigating);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) if (typeof value === "string") query.append(name, value);
    startNavigation(() => router.push(`/search?${query}`));
  };
  return (
    <form {...props} action="/search" onSubmit={onSubmit}>
      {children}
    </form>
  );
}
