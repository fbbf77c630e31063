import { useCallback, useRef } from "react";
import { newClientId } from "./chat/client-id";

/**
 * A clientId per draft for writes that are made once however often they are sent (posts and comments,
 * docs/adr/0144): sending the same draft again (after a lost answer, a second tap) reuses the id, so the
 * server answers what the first send made; a changed draft gets a new id; `done()` after a success, so the
 * same words sent again on purpose are a new post or comment.
 */
export function useClientIdFor(): { idFor: (draft: string) => string; done: () => void } {
  const last = useRef<{ draft: string; id: string } | null>(null);
  const idFor = useCallback((draft: string) => {
    if (last.current?.draft !== draft) last.current = { draft, id: newClientId() };
    return last.current.id;
  }, []);
  const done = useCallback(() => {
    last.current = null;
  }, []);
  return { idFor, done };
}
