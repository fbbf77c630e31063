import { plainToPostHtml } from "@/lib/client/posts";
import { POST_TITLE_MAX } from "@/lib/validation/post-shared";

/** A post's starting title from a share: its title, else the text's first line, else the link's host, else `fallback`. */
export function sharedPostTitle(share: { title: string; text: string; url: string }, fallback: string): string {
  const firstLine = share.text.split("\n").map((l) => l.trim()).find(Boolean) ?? "";
  const host = share.url ? new URL(share.url).hostname : "";
  const title = share.title || firstLine || host || fallback;
  return [...title].slice(0, POST_TITLE_MAX).join("");
}

/** A post's starting text (the editor's HTML): the shared text a paragraph per line, then the link as its own line. */
export function sharedPostHtml(share: { text: string; url: string }): string {
  const link = share.url && !share.text.includes(share.url) ? share.url : "";
  return plainToPostHtml([share.text, link].filter(Boolean).join("\n"));
}

/** A message's text from a share: the text, then the link on its own line. */
export function sharedMessageText(share: { title: string; text: string; url: string }): string {
  const lines = [share.text || share.title, share.url && !share.text.includes(share.url) ? share.url : ""].filter(Boolean);
  return lines.join("\n");
}
