"use client";

import type { FieldValues, Resolver } from "react-hook-form";

/**
 * A form's resolver whose schema, and zod with it, is loaded when the form is first typed in or first
 * validated, not with the page: zod is about 44 KB gzip and its classes take tens of milliseconds to set up,
 * on pages (sign-in, recovery) that are the first a visitor opens (docs/adr/0103). The schema is the same
 * shared one the API checks with. Should the chunk fail to load, the values go to the server unchecked:
 * the API validates them anyway and the form shows its answer.
 */
export function lazyResolver<Input extends FieldValues, Output = Input>(load: () => Promise<Resolver<Input, unknown, Output>>) {
  let loading: Promise<Resolver<Input, unknown, Output>> | null = null;
  const get = () =>
    (loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    }));
  const resolver: Resolver<Input, unknown, Output> = async (values, context, options) => {
    let resolve: Resolver<Input, unknown, Output>;
    try {
      resolve = await get();
    } catch {
      return { values: values as unknown as Output, errors: {} };
    }
    return resolve(values, context, options);
  };
  /** Starts loading ahead of the first validation (the form's first input). */
  const preload = () => {
    get().catch(() => {});
  };
  return { resolver, preload };
}
