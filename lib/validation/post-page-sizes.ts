// The lists' page sizes (spec section 2), in a module of their own: the browser's list code needs these two
// numbers, not the rest of post-shared (its text rules and error codes; docs/adr/0151).
export const FEED_PAGE_SIZE = 5;
export const WALL_PAGE_SIZE = 3;
