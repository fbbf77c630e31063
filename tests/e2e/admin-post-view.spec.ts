import { randomBytes } from "node:crypto";
import { contextIn, createUser, expect as baseExpect, signIn, test } from "./fixtures";
import { createPost } from "./posts-support";

// Issue 13 / spec section 6: the admin view of a post. A moderator opens a post from the publications list
// and sees it as a card — title, text, tags, reactions, comments read-only — with no comment box and no edit
// or delete, and blocks it with the icon whose tooltip is 'Заблокировать' ('Разблокировать' after).

test.describe.configure({ timeout: 180_000 });
const expect = baseExpect.configure({ timeout: 20_000 });

const TEXT = {
  ru: { block: "Заблокировать", unblock: "Разблокировать", placeholder: "Написать комментарий…", postActions: "Действия с записью", reply: "Ответить", blockedNote: "Публикация заблокирована", reason: "Причина" },
  en: { block: "Block", unblock: "Unblock", placeholder: "Write a comment…", postActions: "Post actions", reply: "Reply", blockedNote: "The publication is blocked", reason: "Reason" },
} as const;

for (const lang of ["ru", "en"] as const) {
  const L = TEXT[lang];

  test(`a moderator opens a post in the admin view: read-only, no comment box, blocks it by the icon (${lang})`, async ({ browser, baseURL }) => {
    const tag = randomBytes(3).toString("hex");
    const moderator = await createUser({ role: "MODERATOR", language: lang });
    const author = await createUser({ language: lang, firstName: "Автор", lastName: "Поста" });
    const modContext = await contextIn(browser, lang, baseURL!);
    const authorContext = await contextIn(browser, lang, baseURL!);
    const mod = await modContext.newPage();
    const authorPage = await authorContext.newPage();
    await signIn(mod, moderator);
    await signIn(authorPage, author);
    const post = await createPost(authorPage.request, { title: `Админ-пост ${tag}`, postText: "<p>Текст поста для проверки</p>", tags: [{ name: `t${tag}` }] });
    const comment = await authorPage.request.post(`/api/v1/post/${post.id}/comment`, { data: { commentText: `Комментарий ${tag}` } });
    expect(comment.status()).toBe(201);
    const commentId = ((await comment.json()) as { id: number }).id;

    await mod.goto(`/admin/publications?author=${author.id}`);
    await mod.getByTestId(`open-post-${post.id}`).click();
    await expect(mod).toHaveURL(new RegExp(`/admin/publications/${post.id}$`));
    const card = mod.getByTestId("post-card");
    await expect(card.getByRole("heading", { name: `Админ-пост ${tag}` })).toBeVisible();
    await expect(card).toContainText("Текст поста для проверки");
    await expect(card).toContainText(`#t${tag}`);
    await expect(card.getByTestId("post-comments")).toContainText(`Комментарий ${tag}`);
    // Read-only: no comment box, no reply, no author's menu (edit / delete).
    await expect(card.getByPlaceholder(L.placeholder)).toHaveCount(0);
    await expect(card.getByRole("textbox")).toHaveCount(0);
    await expect(card.getByRole("button", { name: L.reply })).toHaveCount(0);
    await expect(card.getByRole("button", { name: L.postActions })).toHaveCount(0);

    // The comments moderation list leads to the same view: each comment links to its publication.
    await mod.goto(`/admin/comments?author=${author.id}`);
    await expect(mod.getByTestId(`comment-row-${commentId}`)).toContainText(`Комментарий ${tag}`);
    await mod.getByTestId(`open-comment-post-${commentId}`).click();
    await expect(mod).toHaveURL(new RegExp(`/admin/publications/${post.id}$`));
    await expect(card.getByTestId("post-comments")).toContainText(`Комментарий ${tag}`);

    const block = card.getByRole("button", { name: L.block });
    await expect(block).toHaveAttribute("title", L.block);
    // Each action asks for its reason first (issue 24 item 16).
    await block.click();
    await mod.getByRole("alertdialog").getByLabel(L.reason).fill("Проверка");
    await mod.getByRole("alertdialog").getByRole("button", { name: L.block }).click();
    const unblock = card.getByRole("button", { name: L.unblock });
    await expect(unblock).toHaveAttribute("title", L.unblock);
    await expect(mod.getByTestId("admin-post-blocked")).toContainText(L.blockedNote);
    expect(await (await authorPage.request.get(`/api/v1/post/${post.id}`)).json()).toMatchObject({ isBlocked: true });

    await unblock.click();
    await mod.getByRole("alertdialog").getByLabel(L.reason).fill("Ошибка модерации");
    await mod.getByRole("alertdialog").getByRole("button", { name: L.unblock }).click();
    await expect(card.getByRole("button", { name: L.block })).toBeVisible();
    await expect(mod.getByTestId("admin-post-blocked")).toHaveCount(0);
    await modContext.close();
    await authorContext.close();
  });
}
