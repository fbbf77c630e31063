// Krug in the fediverse, part one (issue 43, docs/adr/0172): the switch and the short name in
// account/privacy, and what a remote server can find — WebFinger, the actor with its keys, the outbox,
// a post as a Note, NodeInfo — through the proxy, as a request from outside reaches them; nothing for an
// account that has not switched federation on, a closed profile, a deleted or blocked one.
import { Create, Note, Person } from "@fedify/vocab";
import { sql } from "drizzle-orm";
import { NextRequest } from "next/server";
import { afterAll, describe, expect, it, vi } from "vitest";
import { GET as privacyGet, PUT as privacyPut } from "@/app/api/v1/account/privacy/route";
import { getDb } from "@/db/client";
import { env } from "@/lib/server/env";
import { isFederationRequest } from "@/lib/server/federation/handler";
import { updatePrivacySettings } from "@/lib/server/services/privacy/settings";
import { proxy } from "@/proxy";
import { createComment } from "@/lib/server/services/comments/comments";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { newPost, setPublishDate } from "./post-support";

vi.stubEnv("RATE_LIMIT_PRIVACY", "1000/10m");
vi.stubEnv("RATE_LIMIT_FEDERATION_INBOX", "10/1m");
afterAll(() => vi.unstubAllEnvs());

const AP = "application/activity+json";
const host = () => new URL(env().PUBLIC_URL).host;

async function get(path: string, accept = AP): Promise<Response> {
  return proxy(new NextRequest(new URL(path, env().PUBLIC_URL), { headers: { accept } }));
}

async function json(path: string, accept = AP): Promise<{ status: number; body: any; type: string | null }> {
  const res = await get(path, accept);
  const text = await res.text();
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, body, type: res.headers.get("content-type") };
}

const webfinger = (name: string) => json(`/.well-known/webfinger?resource=${encodeURIComponent(`acct:${name}@${host()}`)}`, "application/jrd+json");

async function federating(overrides: Record<string, unknown> = {}) {
  const a = await signedInAccount({ firstName: "Павел", lastName: "Дуров" });
  await updatePrivacySettings({ ctx: a.ctx, input: { fediverse: true, ...overrides } });
  return a;
}

describe("the switch and the short name (account/privacy)", () => {
  it("is off by default, and on makes the account's keys once", async () => {
    const a = await signedInAccount();
    const before = await call(privacyGet, { token: a.accessToken });
    expect(before.body).toMatchObject({ fediverse: false, fediverseName: null });
    const on = await call(privacyPut, { method: "PUT", token: a.accessToken, body: { fediverse: true } });
    expect(on.status).toBe(200);
    expect(on.body).toMatchObject({ fediverse: true, fediverseName: null });
    const [keys] = await getDb().execute<{ n: number; created: string }>(sql`select count(*)::int as n, max(created_at)::text as created from account_keys where account_id = ${a.id}`);
    expect(keys!.n).toBe(1);
    await call(privacyPut, { method: "PUT", token: a.accessToken, body: { fediverse: false } });
    await call(privacyPut, { method: "PUT", token: a.accessToken, body: { fediverse: true } });
    const [again] = await getDb().execute<{ n: number; created: string }>(sql`select count(*)::int as n, max(created_at)::text as created from account_keys where account_id = ${a.id}`);
    // Switched off and on again: the same actor, the same keys.
    expect(again).toEqual(keys);
  });

  it("takes a short name of 3–32 Latin letters, digits and _, unique regardless of case", async () => {
    const a = await signedInAccount();
    const b = await signedInAccount();
    const name = `dur_${Date.now().toString(36)}`;
    const set = await call(privacyPut, { method: "PUT", token: a.accessToken, body: { fediverseName: name } });
    expect(set.status).toBe(200);
    expect(set.body.fediverseName).toBe(name);
    const taken = await call(privacyPut, { method: "PUT", token: b.accessToken, body: { fediverseName: name.toUpperCase() } });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({ code: "conflict", message: "Этот короткий адрес уже занят" });
    for (const bad of ["ab", "a-b-c", "x".repeat(33), "дуров", "id42", "ID7", "a b c", "x".repeat(10_000), "a\u0000bc", 42, true]) {
      const res = await call(privacyPut, { method: "PUT", token: b.accessToken, body: { fediverseName: bad } });
      expect(res.status, String(bad).slice(0, 20)).toBe(400);
      expect(res.body.error.issues[0].path).toBe("fediverseName");
    }
    // A body beyond the API's size limit is refused before it is read.
    expect((await call(privacyPut, { method: "PUT", token: b.accessToken, body: { fediverseName: "x".repeat(100_000) } })).status).toBe(413);
    const after = await call(privacyGet, { token: b.accessToken });
    expect(after.body.fediverseName).toBeNull();
    // Given up, the name is free for someone else.
    await call(privacyPut, { method: "PUT", token: a.accessToken, body: { fediverseName: null } });
    const free = await call(privacyPut, { method: "PUT", token: b.accessToken, body: { fediverseName: name } });
    expect(free.status).toBe(200);
  });
});

describe("WebFinger", () => {
  it("knows a federating account by id<N> and by its short name, linking its actor", async () => {
    const name = `wf_${Date.now().toString(36)}`;
    const a = await federating({ fediverseName: name });
    for (const handle of [`id${a.id}`, name, name.toUpperCase()]) {
      const res = await webfinger(handle);
      expect(res.status, handle).toBe(200);
      const self = res.body.links.find((l: { rel: string; type?: string }) => l.rel === "self" && l.type === AP);
      expect(self.href).toBe(`${env().PUBLIC_URL}/profile/${a.id}`);
    }
  });

  it("does not know anyone who has not switched it on, has a closed profile, or is gone", async () => {
    const off = await signedInAccount();
    expect((await webfinger(`id${off.id}`)).status).toBe(404);
    const closed = await federating({ profileVisibility: "FRIENDS" });
    expect((await webfinger(`id${closed.id}`)).status).toBe(404);
    const deleted = await federating();
    await getDb().execute(sql`update accounts set is_deleted = true where id = ${deleted.id}`);
    expect((await webfinger(`id${deleted.id}`)).status).toBe(404);
    const blocked = await federating();
    await getDb().execute(sql`update accounts set is_blocked = true where id = ${blocked.id}`);
    expect((await webfinger(`id${blocked.id}`)).status).toBe(404);
    // Switched off again: unknown at once.
    const later = await federating();
    expect((await webfinger(`id${later.id}`)).status).toBe(200);
    await updatePrivacySettings({ ctx: later.ctx, input: { fediverse: false } });
    expect((await webfinger(`id${later.id}`)).status).toBe(404);
  });

  it("answers hostile resources with a clear refusal", async () => {
    for (const resource of ["", "acct:", `acct:${"a".repeat(5000)}@${host()}`, "acct:id1@elsewhere.example", "acct:id0@x", "http://[::1", "acct:'; drop table accounts;--@x", "acct:\u0000@x"]) {
      const res = await get(`/.well-known/webfinger?resource=${encodeURIComponent(resource)}`, "application/jrd+json");
      expect([400, 404], resource.slice(0, 30)).toContain(res.status);
    }
  });
});

describe("the actor", () => {
  it("is a Person at the profile's URL, with its inbox, outbox, shared inbox and both keys", async () => {
    const name = `ac_${Date.now().toString(36)}`;
    const a = await federating({ fediverseName: name });
    await getDb().execute(sql`update accounts set about = ${"Основатель.\n<b>не тег</b>"} where id = ${a.id}`);
    const res = await json(`/profile/${a.id}`);
    expect(res.status).toBe(200);
    expect(res.type).toContain("application/activity+json");
    const person = await Person.fromJsonLd(res.body);
    expect(person.id?.href).toBe(`${env().PUBLIC_URL}/profile/${a.id}`);
    expect(person.preferredUsername?.toString()).toBe(name);
    expect(person.name?.toString()).toBe("Павел Дуров");
    expect(person.summary?.toString()).toBe("<p>Основатель.<br>&#60;b&#62;не тег&#60;/b&#62;</p>");
    expect(person.url?.href).toBe(`${env().PUBLIC_URL}/@${name}`);
    expect(person.inboxId?.href).toBe(`${env().PUBLIC_URL}/profile/${a.id}/inbox`);
    expect(person.outboxId?.href).toBe(`${env().PUBLIC_URL}/profile/${a.id}/outbox`);
    expect(person.endpoints?.sharedInbox?.href).toBe(`${env().PUBLIC_URL}/inbox`);
    const key = await person.getPublicKey();
    expect(key?.ownerId?.href).toBe(person.id?.href);
    expect((await Array.fromAsync(person.getAssertionMethods())).length).toBe(2);
    // Asked for by its short name's URL, the same actor.
    const short = await json(`/@${name}`);
    expect(short.body.id).toBe(res.body.id);
  });

  it("is the page for a browser, and nothing for an account that does not federate", async () => {
    const a = await federating();
    const page = await get(`/profile/${a.id}`, "text/html");
    expect(page.headers.get("content-type") ?? "").not.toContain("json");
    expect(page.headers.get("x-middleware-next") ?? page.headers.get("x-middleware-rewrite")).toBeTruthy();
    const off = await signedInAccount();
    const res = await get(`/profile/${off.id}`);
    expect(res.headers.get("content-type") ?? "").not.toContain("activity+json");
  });

  it("leads a browser from a reply's URI to the comment under its post, and serves its Note only when its author federates", async () => {
    const a = await federating();
    const post = await newPost(a.ctx, { title: "С комментарием" });
    const page = await get(`/post/${post.id}/comments/77`, "text/html");
    expect(page.status).toBe(307);
    expect(page.headers.get("location")).toBe(`${env().PUBLIC_URL}/post/${post.id}#comment-77`);
    // A comment of a federating person under a federating post is a Note; one of someone who does not federate is not.
    const comment = await createComment({ ctx: a.ctx, input: { postId: post.id, body: { commentText: "Свой" } } });
    const note = await json(`/post/${post.id}/comments/${comment.id}`);
    expect([note.status, note.type, note.body.type, note.body.inReplyTo]).toEqual([200, AP, "Note", `${env().PUBLIC_URL}/post/${post.id}`]);
    const off = await signedInAccount();
    const theirs = await createComment({ ctx: off.ctx, input: { postId: post.id, body: { commentText: "Чужой" } } });
    expect((await get(`/post/${post.id}/comments/${theirs.id}`)).status).toBe(404);
    expect(isFederationRequest(`/post/${post.id}/comments/${comment.id}`, "GET", AP)).toBe(true);
    expect(isFederationRequest(`/post/${post.id}/comments/0${comment.id}`, "GET", AP)).toBe(false);
  });

  it("opens the profile at /@name in a browser", async () => {
    const name = `pg_${Date.now().toString(36)}`;
    const a = await federating({ fediverseName: name });
    const page = await get(`/@${name}`, "text/html");
    expect(page.headers.get("x-middleware-rewrite")).toBe(`${env().PUBLIC_URL}/profile/${a.id}`);
  });
});

describe("posts as Notes", () => {
  it("lists the public posts in the outbox, newest first, and serves each as a Note at its URL", async () => {
    const a = await federating();
    const first = await newPost(a.ctx, { title: "Первая", postText: "<p>Текст <strong>жирный</strong></p>" });
    const second = await newPost(a.ctx, { title: "Вторая" });
    const gone = await newPost(a.ctx, { title: "Удалённая" });
    await getDb().execute(sql`update posts set is_deleted = true where id = ${gone.id}`);
    const later = await newPost(a.ctx, { title: "Отложенная" });
    await setPublishDate(later.id, new Date(Date.now() + 86_400_000));
    const outbox = await json(`/profile/${a.id}/outbox`);
    expect(outbox.status).toBe(200);
    expect(outbox.body.totalItems).toBe(2);
    const page = await json(new URL(outbox.body.first).pathname + new URL(outbox.body.first).search);
    const items = await Promise.all(page.body.orderedItems.map((i: unknown) => Create.fromJsonLd({ "@context": page.body["@context"], ...(i as object) })));
    const notes = await Promise.all(items.map((c) => c.getObject()));
    expect(notes.map((n) => n?.id?.href)).toEqual([second.id, first.id].map((id) => `${env().PUBLIC_URL}/post/${id}`));
    const note = await json(`/post/${first.id}`);
    expect(note.status).toBe(200);
    const parsed = await Note.fromJsonLd(note.body);
    expect(parsed.content?.toString()).toBe("<p><strong>Первая</strong></p><p>Текст <strong>жирный</strong></p>");
    expect(parsed.attributionId?.href).toBe(`${env().PUBLIC_URL}/profile/${a.id}`);
    for (const hidden of [gone.id, later.id]) {
      const res = await get(`/post/${hidden}`);
      expect(res.headers.get("content-type") ?? "", String(hidden)).not.toContain("activity+json");
    }
  });

  it("pages the outbox in the wall's order, every post once", async () => {
    const a = await federating();
    const made: number[] = [];
    for (let i = 0; i < 23; i++) made.push((await newPost(a.ctx, { title: `Запись ${i}` })).id);
    // One post published earlier than the rest: it comes last, as on the wall.
    await setPublishDate(made[5]!, new Date(Date.now() - 86_400_000));
    const expected = [...made.filter((id) => id !== made[5]).reverse(), made[5]];
    const outbox = await json(`/profile/${a.id}/outbox`);
    expect(outbox.body.totalItems).toBe(23);
    const seen: string[] = [];
    let next: string | undefined = outbox.body.first;
    while (next) {
      const page = await json(new URL(next).pathname + new URL(next).search);
      expect(page.status).toBe(200);
      seen.push(...page.body.orderedItems.map((i: { object: { id: string } }) => i.object.id));
      next = page.body.next;
    }
    expect(seen).toEqual(expected.map((id) => `${env().PUBLIC_URL}/post/${id}`));
    // A cursor that is not a post id of this author's is no page.
    expect((await get(`/profile/${a.id}/outbox?cursor=abc`)).status).toBe(404);
  });

  it("serves nothing of an author who does not federate", async () => {
    const off = await signedInAccount();
    const post = await newPost(off.ctx, { title: "Не для федиверса" });
    const res = await get(`/post/${post.id}`);
    expect(res.headers.get("content-type") ?? "").not.toContain("activity+json");
    const outbox = await get(`/profile/${off.id}/outbox`);
    expect(outbox.status).toBe(404);
  });
});

describe("inboxes and NodeInfo", () => {
  it("refuses an unsigned activity with 401", async () => {
    const a = await federating();
    for (const path of ["/inbox", `/profile/${a.id}/inbox`]) {
      const res = await proxy(
        new NextRequest(new URL(path, env().PUBLIC_URL), {
          method: "POST",
          headers: { "content-type": AP },
          body: JSON.stringify({ "@context": "https://www.w3.org/ns/activitystreams", type: "Follow", id: "https://evil.example/1", actor: "https://evil.example/u", object: `${env().PUBLIC_URL}/profile/${a.id}` }),
        }),
      );
      expect(res.status, path).toBe(401);
    }
  });

  it("refuses a body too big or nested too deep before anything parses it", async () => {
    const a = await federating();
    const post = (body: string) =>
      proxy(new NextRequest(new URL(`/profile/${a.id}/inbox`, env().PUBLIC_URL), { method: "POST", headers: { "content-type": AP }, body }));
    const activity = (extra: string) => `{"@context":"https://www.w3.org/ns/activitystreams","type":"Create","actor":"https://evil.example/u","object":${extra}}`;
    expect((await post(activity(`"${"x".repeat(300 * 1024)}"`))).status).toBe(413);
    expect((await post(activity(`${"[".repeat(100)}1${"]".repeat(100)}`))).status).toBe(400);
    expect((await post("[".repeat(200_000))).status).toBe(400);
    // Brackets inside strings are text, not nesting: such a body reaches the signature check.
    expect((await post(activity(`{"type":"Note","content":"${"[{".repeat(1000)}"}`))).status).toBe(401);
    // The limits leave an ordinary activity alone.
    expect((await post(activity(`{"type":"Note","content":"${"слово ".repeat(2000)}"}`))).status).toBe(401);
  });

  it("limits each remote server's activities, counted by its signing key's host, apart from other servers", async () => {
    const a = await federating();
    const from = (keyId: string) =>
      proxy(
        new NextRequest(new URL("/inbox", env().PUBLIC_URL), {
          method: "POST",
          headers: { "content-type": AP, signature: `keyId="${keyId}",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="AAAA"` },
          body: JSON.stringify({ "@context": "https://www.w3.org/ns/activitystreams", type: "Follow", id: `${keyId}/f`, actor: keyId, object: `${env().PUBLIC_URL}/profile/${a.id}` }),
        }),
      );
    // Ten from one server pass the limit (and fail the signature); the eleventh is 429, from any of its keys.
    for (let i = 0; i < 10; i++) expect((await from(`https://flood.example/users/u${i}#main-key`)).status).not.toBe(429);
    const refused = await from("https://FLOOD.example/users/other#main-key");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another server is not held back by it.
    expect((await from("https://calm.example/users/u#main-key")).status).not.toBe(429);
  });

  it("says what software this is and how many people and posts it holds", async () => {
    const well = await json("/.well-known/nodeinfo", "application/json");
    expect(well.status).toBe(200);
    const href = well.body.links[0].href as string;
    expect(href).toBe(`${env().PUBLIC_URL}/nodeinfo/2.1`);
    const info = await json("/nodeinfo/2.1", "application/json");
    expect(info.status).toBe(200);
    expect(info.body.software.name).toBe("krug");
    expect(info.body.protocols).toEqual(["activitypub"]);
    expect(info.body.usage.users.total).toBeGreaterThan(0);
  });

  it("recognises only its own paths, and pages only when ActivityPub JSON is asked for", () => {
    expect(isFederationRequest("/.well-known/webfinger", "GET", null)).toBe(true);
    expect(isFederationRequest("/inbox", "POST", null)).toBe(true);
    expect(isFederationRequest("/profile/5", "GET", "text/html")).toBe(false);
    expect(isFederationRequest("/profile/5", "GET", 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"')).toBe(true);
    expect(isFederationRequest("/profile/5", "POST", AP)).toBe(false);
    expect(isFederationRequest("/profile/05", "GET", AP)).toBe(false);
    expect(isFederationRequest("/settings", "GET", AP)).toBe(false);
  });
});
