import type { APIRequestContext } from "@playwright/test";
import { contextIn, createUser, expect, signIn, test } from "./fixtures";
import { useLanguage } from "./language-support";
import { apiAs } from "./profile-support";
import { createPost } from "./posts-support";

// Issue 24 item 13 (docs/adr/0116): the comment count of a post is what its list shows once the post's
// author blocked a commenter («2 комментария» over an empty list), and a moderated comment or post carries
// a marker for its author (she saw «Комментариев пока нет» above her own comment, with no sign of the block).

const TEXT = {
  ru: { one: "1 комментарий", none: "Комментариев пока нет", comment: "Скрыт модератором", post: "Скрыто модератором" },
  en: { one: "1 comment", none: "No comments yet", comment: "Hidden by a moderator", post: "Hidden by a moderator" },
} as const;

async function comment(api: APIRequestContext, postId: number, commentText: string): Promise<number> {
  const res = await api.post(`/api/v1/post/${postId}/comment`, { data: { commentText } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).id;
}

async function put(api: APIRequestContext, path: string, data: unknown = {}): Promise<void> {
  const res = await api.put(path, { data });
  expect(res.status(), await res.text()).toBe(200);
}

for (const lang of ["ru", "en"] as const) {
  test.describe(lang === "ru" ? "по-русски" : "in English", () => {
    useLanguage(lang);

    test("a blocked commenter leaves the count; a moderated comment and post are marked for their author", async ({ browser, page, baseURL }) => {
      test.setTimeout(120_000);
      const t = TEXT[lang];
      const [anna, boris, clara, moderator] = await Promise.all([
        createUser({ firstName: "Анна", lastName: "Хозяйкина", language: lang }),
        createUser({ firstName: "Борис", lastName: "Грубов", language: lang }),
        createUser({ firstName: "Клара", lastName: "Спорова", language: lang }),
        createUser({ firstName: "Мод", lastName: "Модеров", language: lang, role: "MODERATOR" }),
      ]);
      const [annaApi, borisApi, claraApi, modApi] = await Promise.all([apiAs(anna), apiAs(boris), apiAs(clara), apiAs(moderator)]);
      const post = await createPost(annaApi, { title: "Запись Анны", postText: "<p>Обсудим?</p>" });
      await comment(borisApi, post.id, "Грубый комментарий Бориса");
      const claras = await comment(claraApi, post.id, "Спорный комментарий Клары");

      // Anna blocks Boris: his comment leaves her post and its count, for her and for everyone.
      await put(annaApi, `/api/v1/friends/block/${boris.id}`);
      await signIn(page, anna);
      await page.goto(`/post/${post.id}`);
      const comments = page.getByTestId("post-comments");
      await expect(comments.getByTestId("comment")).toHaveCount(1);
      await expect(comments.getByTestId("comments-count")).toHaveText(t.one);
      await expect(comments).not.toContainText("Грубый комментарий Бориса");

      // A moderator blocks Clara's comment and a post of hers: she sees both, marked, and no "no comments yet".
      const own = await createPost(claraApi, { title: "Запись Клары", postText: "<p>Спорная запись</p>" });
      await put(modApi, `/api/v1/admin/comments/${claras}/block`, { reason: "Спор" });
      await put(modApi, `/api/v1/admin/posts/${own.id}/block`, { reason: "Спор" });
      const claraContext = await contextIn(browser, lang, baseURL!);
      const claraPage = await claraContext.newPage();
      await signIn(claraPage, clara);
      await claraPage.goto(`/post/${post.id}`);
      const mine = claraPage.getByTestId("post-comments").getByTestId("comment");
      await expect(mine).toHaveCount(1);
      await expect(mine).toContainText("Спорный комментарий Клары");
      await expect(mine.getByTestId("comment-blocked-note")).toContainText(t.comment);
      await expect(claraPage.getByTestId("post-comments")).not.toContainText(t.none);
      await claraPage.goto("/profile");
      const card = claraPage.getByTestId("post-card").filter({ hasText: "Запись Клары" });
      await expect(card.getByTestId("post-blocked-note")).toContainText(t.post);

      // Anna, not its author, sees neither the comment nor an empty-list count that contradicts it.
      await page.reload();
      await expect(comments.getByTestId("comment")).toHaveCount(0);
      await expect(comments.getByTestId("comments-count")).toHaveText(t.none);
      await claraContext.close();
      await Promise.all([annaApi, borisApi, claraApi, modApi].map((a) => a.dispose()));
    });
  });
}
