// The post HTML of issue 24 items 1 and 9 that froze a web worker or answered 500 (docs/adr/0107): the unit
// tests of the pre-check, the route tests and the bench send these.
export const HOSTILE_POST_HTML: Record<string, string> = {
  "<b> × 16,000": "<b>".repeat(16_000),
  "<blockquote> × 4,000": "<blockquote>".repeat(4_000),
  "<div> × 6,000": "<div>".repeat(6_000),
  "<p><b> × 4,000": "<p><b>".repeat(4_000),
  "<strong>xxxxxxxxx × 2,500": "<strong>xxxxxxxxx".repeat(2_500),
};
