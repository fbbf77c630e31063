import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getRoute } from "@/app/api/v1/post/[id]/route";
import { GET as newsRoute } from "@/app/api/v1/post/newsPosts/route";
import { POST as createRoute, PUT as editRoute } from "@/app/api/v1/post/route";
import { getDb } from "@/db/client";
import { sanitizerRunCount } from "@/lib/validation/post-html";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { postTables, validPost } from "./post-support";
import { HOSTILE_POST_HTML } from "../support/hostile-post-html";

// Issue 24 items 1 and 9 (docs/adr/0107): deeply nested or element-heavy post HTML is refused with a 422
// before the sanitiser runs, through POST and PUT alike, and a row that holds such HTML already (written
// before the bound) renders as plain text without DOMPurify. The bounds are measured with the HTML parser
// (issue 40 item 10): a script or an svg before a link is no longer taken for thousands of elements.

const HOSTILE = HOSTILE_POST_HTML;

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let a: Account;

beforeAll(async () => {
  a = await signedInAccount({ firstName: "Anna", lastName: "Ivanova" });
});

describe("post HTML beyond the bounds", () => {
  it("POST answers 422 with the message in the reader's language and stores nothing", async () => {
    const before = await postTables();
    for (const [label, postText] of Object.entries(HOSTILE)) {
      for (const [language, message] of [
        ["ru", "В тексте поста слишком много оформления или вложенности — упростите его."],
        ["en", "The post text has too much formatting or nesting — please simplify it."],
      ]) {
        const res = await call(createRoute, {
          method: "POST",
          path: "/api/v1/post",
          body: validPost({ postText }),
          token: a.accessToken,
          headers: { "accept-language": language },
        });
        expect(res.status, label).toBe(422);
        expect(res.body.error.code).toBe("validation_failed");
        expect(res.body.error.message).toBe(message);
        expect(res.body.error.issues).toContainEqual({ path: "postText", message });
      }
    }
    expect(await postTables()).toEqual(before);
  });

  it("PUT answers 422 and leaves the post as it was", async () => {
    const created = await call(createRoute, { method: "POST", path: "/api/v1/post", body: validPost(), token: a.accessToken });
    expect(created.status).toBe(201);
    const before = await postTables();
    for (const [label, postText] of Object.entries(HOSTILE)) {
      const res = await call(editRoute, {
        method: "PUT",
        path: "/api/v1/post",
        body: { id: created.body.id, ...validPost({ postText }) },
        token: a.accessToken,
      });
      expect(res.status, label).toBe(422);
      expect(res.body.error.issues.map((i: { path: string }) => i.path)).toContain("postText");
    }
    expect(await postTables()).toEqual(before);
  });

  it("a hostile row already in the database reaches a reader as plain text, without DOMPurify", async () => {
    const [row] = await getDb().execute<{ id: string }>(sql`
      insert into posts (author_id, title, post_text) values (${a.id}, 'Старый пост', ${HOSTILE["<strong>xxxxxxxxx × 2,500"]}) returning id`);
    const id = Number(row.id);
    const runs = sanitizerRunCount();
    // The answer carries the post as rendered (ADR 0124): the pre-check turned it into its text, and the
    // sanitiser never ran on it — not for the post, not for the feed.
    const one = await call(getRoute, { method: "GET", path: `/api/v1/post/${id}`, params: { id: String(id) }, token: a.accessToken });
    expect(one.status).toBe(200);
    const feed = await call(newsRoute, { method: "GET", path: "/api/v1/post/newsPosts?size=50", token: a.accessToken });
    expect(feed.status).toBe(200);
    const inFeed = feed.body.content.find((p: { id: number }) => p.id === id);
    for (const post of [one.body, inFeed]) expect(post.postText).toBe(`<p>${"xxxxxxxxx".repeat(2_500)}</p>`);
    expect(sanitizerRunCount()).toBe(runs);
  });

  it("a stored row the sanitiser would change reaches every reader sanitised again on read", async () => {
    // Written past the services (an old row, a restored backup): the read path sanitises it once more.
    const [row] = await getDb().execute<{ id: string }>(sql`
      insert into posts (author_id, title, post_text)
      values (${a.id}, 'Старая запись', ${'<p onclick="steal()">Привет <script>alert(1)</script><a href="javascript:alert(2)">ссылка</a></p>'}) returning id`);
    const id = Number(row.id);
    const one = await call(getRoute, { method: "GET", path: `/api/v1/post/${id}`, params: { id: String(id) }, token: a.accessToken });
    expect(one.status).toBe(200);
    // The handler, the script and the javascript: address are gone; the text stays. (Until issue 40 item 10
    // the script alone made the pre-check refuse the row, and it came back as plain text.)
    expect(one.body.postText).toBe('<p>Привет <a rel="nofollow noopener ugc">ссылка</a></p>');
  });

  it("a post with a script, an svg or a select before a link is taken, those stripped (issue 40 item 10)", async () => {
    for (const before of ["<script>alert(1)</script>", '<svg viewBox="0 0 24 24"><path d="M0 0h24v24H0z"/></svg>', `<select>${"<option>a</option>".repeat(40)}</select>`]) {
      const postText = `<p>Safe text</p>${before}<a href="https://example.com">link</a>`;
      const res = await call(createRoute, { method: "POST", path: "/api/v1/post", body: validPost({ postText }), token: a.accessToken });
      expect(res.status, before).toBe(201);
      expect(res.body.postText).toBe('<p>Safe text</p><a href="https://example.com" rel="nofollow noopener ugc">link</a>');
    }
  });
});
