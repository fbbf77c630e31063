import "server-only";

export type Page<T> = { content: T[]; totalPages: number; totalElements: number; size: number; number: number };

/** The paging envelope of every list (spec section 3): number is zero-based. */
export function pageOf<T>(content: T[], totalElements: number, page: number, size: number): Page<T> {
  return { content, totalPages: Math.ceil(totalElements / size), totalElements, size, number: page };
}

export function json(data: unknown, init: ResponseInit = {}): Response {
  return Response.json(data, init);
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}
