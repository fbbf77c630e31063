import type { ReactionCount, ReactionType } from "@/lib/validation/post";

/** The reaction part of a post, as the card shows it. */
export type ReactionState = { likeAmount: number; myLike: boolean; myReaction: ReactionType | null; reactionType: ReactionCount[] };

/** Most used first; equal counts keep a stable order by type, so chips don't jump around. */
function ordered(counts: ReactionCount[]): ReactionCount[] {
  return [...counts].sort((a, b) => b.count - a.count || a.reactionType.localeCompare(b.reactionType));
}

/**
 * The state after the viewer's reaction becomes `next` (null removes it): at most one reaction per person
 * (spec section 4), so the old one's count goes down and the new one's up. The optimistic guess; the
 * server's answer replaces it.
 */
export function applyReaction(state: ReactionState, next: ReactionType | null): ReactionState {
  const prev = state.myReaction;
  if (prev === next) return state;
  const counts = new Map(state.reactionType.map((c) => [c.reactionType, c.count]));
  if (prev) counts.set(prev, Math.max(0, (counts.get(prev) ?? 0) - 1));
  if (next) counts.set(next, (counts.get(next) ?? 0) + 1);
  const reactionType = ordered([...counts].filter(([, n]) => n > 0).map(([reactionType, count]) => ({ reactionType, count })));
  const likeAmount = Math.max(0, state.likeAmount - (prev ? 1 : 0) + (next ? 1 : 0));
  return { likeAmount, myLike: next !== null, myReaction: next, reactionType };
}

/** What clicking `clicked` means (spec section 4): the same reaction again removes it, another one replaces it. */
export function nextReaction(current: ReactionType | null, clicked: ReactionType): ReactionType | null {
  return current === clicked ? null : clicked;
}
