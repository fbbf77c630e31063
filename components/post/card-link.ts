/**
 * The attribute of a post card's own links (author, photo, tags): plain anchors in the server's HTML that
 * PostCardFrame routes in the app, prefetching on intent as our Link does (docs/adr/0150). A module of its
 * own: the server card and the client frame both read it.
 */
export const CARD_LINK = "data-card-link";
