// Issue 44 (docs/adr/0179): what the share sheet may bring (hostile shares refused whole, nothing kept),
// the manifest's share_target and shortcuts, and the chat outbox's rules (only the writer's account, never
// twice, what is tried again). The worker and the pages run in Chromium in tests/e2e/share-offline.spec.ts.
import { beforeEach, describe, expect, it, vi } from "vitest";

import { sharedMessageText, sharedPostHtml, sharedPostTitle } from "@/components/share/share-text";
import { isOffline } from "@/lib/pwa/device/drafts";
import { flushOutbox, OUTBOX_KEEP_MS, outcomeOf, type OutboxItem, type SendOutcome } from "@/lib/pwa/device/outbox";
import { webManifest } from "@/lib/pwa/manifest";
import { isShareRequest, receiveShare } from "@/lib/pwa/worker/share-target";
import { checkShare, shareErrorOf, sharedLink, SHARE_ACTION, SHARE_PHOTO_BYTES_MAX, SHARE_TEXT_MAX } from "@/lib/validation/share";

const ORIGIN = "https://krug.example";
const photo = (size = 1000, type = "image/jpeg", name = "p.jpg") => new File([new Uint8Array(size)], name, { type });
const input = (over: Partial<{ title: unknown; text: unknown; url: unknown; photos: unknown[] }> = {}) => ({ title: null, text: null, url: null, photos: [], ...over });

describe("checkShare", () => {
  it("takes a link, a text and up to ten photos", () => {
    const ok = checkShare<File>(input({ title: " Заголовок ", text: "Посмотри", url: "https://example.org/a?b=1", photos: Array.from({ length: 10 }, () => photo()) }));
    expect(ok.ok && ok.share).toMatchObject({ title: "Заголовок", text: "Посмотри", url: "https://example.org/a?b=1" });
    expect(ok.ok && ok.share.photos).toHaveLength(10);
    // Apps that put the link into the text: it becomes the link.
    expect(checkShare(input({ text: "https://example.org/x" }))).toEqual({ ok: true, share: { title: "", text: "", url: "https://example.org/x", photos: [] } });
  });

  it("refuses a hostile share whole", () => {
    expect(checkShare(input({ photos: Array.from({ length: 11 }, () => photo()) }))).toEqual({ ok: false, error: "tooManyPhotos" });
    expect(checkShare(input({ photos: [photo(), photo(SHARE_PHOTO_BYTES_MAX + 1)] }))).toEqual({ ok: false, error: "photoTooLarge" });
    expect(checkShare(input({ photos: [photo(100, "application/pdf", "a.pdf")] }))).toEqual({ ok: false, error: "notAnImage" });
    expect(checkShare(input({ photos: [photo(100, "image/svg+xml", "a.svg")] }))).toEqual({ ok: false, error: "notAnImage" });
    expect(checkShare(input({ photos: ["not a file"] }))).toEqual({ ok: false, error: "notAnImage" });
    expect(checkShare(input({ text: "я".repeat(SHARE_TEXT_MAX + 1) }))).toEqual({ ok: false, error: "textTooLong" });
    expect(checkShare(input({ title: "я".repeat(201) }))).toEqual({ ok: false, error: "textTooLong" });
    for (const url of ["javascript:alert(1)", "JavaScript:alert(1)", "data:text/html,<b>x</b>", "file:///etc/passwd", "not a url", `https://e.org/${"a".repeat(2100)}`]) {
      expect(checkShare(input({ text: "x", url }))).toEqual({ ok: false, error: "badLink" });
    }
    expect(checkShare(input())).toEqual({ ok: false, error: "empty" });
    // A form's empty file field is no photo.
    expect(checkShare(input({ text: "x", photos: ["", new File([], "", { type: "application/octet-stream" })] }))).toEqual({ ok: true, share: { title: "", text: "x", url: "", photos: [] } });
    expect(checkShare(input({ text: "   ", url: "" }))).toEqual({ ok: false, error: "empty" });
  });

  it("reads only known refusals from the page's address", () => {
    expect(shareErrorOf("tooManyPhotos")).toBe("tooManyPhotos");
    expect(shareErrorOf("<script>")).toBeNull();
    expect(shareErrorOf(undefined)).toBeNull();
    expect(sharedLink(" http://example.org ")).toBe("http://example.org/");
  });
});

describe("the worker's share target", () => {
  const scope = { location: { origin: ORIGIN } } as unknown as ServiceWorkerGlobalScope;
  const post = (form: FormData) => new Request(ORIGIN + SHARE_ACTION, { method: "POST", body: form });
  let kept: unknown[] = [];
  const keep = async (share: unknown) => {
    kept.push(share);
  };
  beforeEach(() => {
    kept = [];
  });

  it("keeps an accepted share and sends the page to the chooser", async () => {
    const form = new FormData();
    form.set("title", "Ссылка");
    form.set("url", "https://example.org/");
    form.append("photos", photo());
    const res = await receiveShare(scope, post(form), keep);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${ORIGIN}/share?received=1`);
    expect(kept).toHaveLength(1);
  });

  it("keeps nothing of a hostile share and says why", async () => {
    const cases: [FormData, string][] = [];
    const eleven = new FormData();
    for (let i = 0; i < 11; i += 1) eleven.append("photos", photo());
    cases.push([eleven, "tooManyPhotos"]);
    const big = new FormData();
    big.append("photos", photo(SHARE_PHOTO_BYTES_MAX + 1));
    cases.push([big, "photoTooLarge"]);
    const pdf = new FormData();
    pdf.append("photos", photo(10, "application/pdf", "x.pdf"));
    cases.push([pdf, "notAnImage"]);
    const js = new FormData();
    js.set("url", "javascript:alert(document.cookie)");
    cases.push([js, "badLink"]);
    const long = new FormData();
    long.set("text", "x".repeat(SHARE_TEXT_MAX + 1));
    cases.push([long, "textTooLong"]);
    for (const [form, error] of cases) {
      const res = await receiveShare(scope, post(form), keep);
      expect(res.headers.get("location")).toBe(`${ORIGIN}/share?error=${error}`);
    }
    // A 50 MB body is refused by its length before it is read.
    const huge = new Request(ORIGIN + SHARE_ACTION, { method: "POST", headers: { "content-length": String(50 * 1024 * 1024), "content-type": "multipart/form-data; boundary=x" }, body: "--x--" });
    expect((await receiveShare(scope, huge, keep)).headers.get("location")).toBe(`${ORIGIN}/share?error=photoTooLarge`);
    expect(kept).toEqual([]);
  });

  it("answers only a POST to its own action", () => {
    expect(isShareRequest(new Request(ORIGIN + SHARE_ACTION, { method: "POST" }), ORIGIN)).toBe(true);
    expect(isShareRequest(new Request(ORIGIN + SHARE_ACTION), ORIGIN)).toBe(false);
    expect(isShareRequest(new Request(`https://evil.example${SHARE_ACTION}`, { method: "POST" }), ORIGIN)).toBe(false);
    expect(isShareRequest(new Request(`${ORIGIN}/share`, { method: "POST" }), ORIGIN)).toBe(false);
  });
});

describe("the manifest", () => {
  it("names the share target and the two shortcuts in each language", () => {
    for (const [locale, names] of [
      ["ru", ["Сообщения", "Новая запись"]],
      ["en", ["Messages", "New post"]],
    ] as const) {
      const m = webManifest(locale);
      expect(m.share_target).toEqual({
        action: "/share/receive",
        method: "POST",
        enctype: "multipart/form-data",
        params: { title: "title", text: "text", url: "url", files: [{ name: "photos", accept: ["image/jpeg", "image/png", "image/webp", "image/gif", "image/avif"] }] },
      });
      expect(m.shortcuts.map((s) => [s.name, s.url])).toEqual([
        [names[0], "/im"],
        [names[1], "/?compose=post"],
      ]);
    }
  });
});

describe("a share made into a post or a message", () => {
  it("escapes the shared text and keeps the link as text", () => {
    const share = { title: "", text: "<img src=x onerror=alert(1)>\n\nвторой", url: "https://example.org/?a=1&b=2" };
    expect(sharedPostHtml(share)).toBe("<p>&lt;img src=x onerror=alert(1)&gt;</p><p>второй</p><p>https://example.org/?a=1&amp;b=2</p>");
    expect(sharedPostTitle(share, "Ссылка")).toBe("<img src=x onerror=alert(1)>");
    expect(sharedPostTitle({ title: "", text: "", url: "https://example.org/x" }, "Ссылка")).toBe("example.org");
    expect(sharedMessageText(share)).toBe("<img src=x onerror=alert(1)>\n\nвторой\nhttps://example.org/?a=1&b=2");
  });
});

describe("the chat outbox", () => {
  const item = (clientId: string, accountId = 7, savedAt = 1_000): OutboxItem => ({ clientId, accountId, dialogId: 3, body: { messageText: clientId, clientId }, savedAt });

  it("sends only the signed-in account's messages, oldest first, and drops another account's unsent", async () => {
    const sent: string[] = [];
    const removed: string[] = [];
    const left = await flushOutbox({
      accountId: 7,
      items: [item("b", 7, 2_000), item("other", 8), item("a", 7, 1_000)],
      send: async (i) => {
        sent.push(i.clientId);
        return "sent";
      },
      remove: async (id) => {
        removed.push(id);
      },
      now: 3_000,
    });
    expect(sent).toEqual(["a", "b"]);
    expect(removed.sort()).toEqual(["a", "b", "other"]);
    expect(left).toBe(0);
  });

  it("keeps what the line lost, drops what the server refused and what is too old", async () => {
    const removed: string[] = [];
    const outcomes: Record<string, SendOutcome | "throw"> = { line: "retry", refused: "refused", thrown: "throw" };
    const left = await flushOutbox({
      accountId: 7,
      items: [item("line"), item("refused"), item("thrown"), item("old", 7, 0)],
      send: async (i) => {
        const o = outcomes[i.clientId];
        if (o === "throw") throw new TypeError("Failed to fetch");
        return o;
      },
      remove: async (id) => {
        removed.push(id);
      },
      now: OUTBOX_KEEP_MS + 1,
    });
    expect(removed.sort()).toEqual(["old", "refused"]);
    expect(left).toBe(2);
  });

  it("retries the line's, the server's and the session's troubles and nothing else", () => {
    expect([200, 201].map(outcomeOf)).toEqual(["sent", "sent"]);
    expect([0, 401, 408, 429, 500, 503].map(outcomeOf)).toEqual(Array(6).fill("retry"));
    expect([400, 403, 404, 409, 413, 422].map(outcomeOf)).toEqual(Array(6).fill("refused"));
  });

  it("keeps a draft only when the network failed with the browser offline, not when the server refused or an answer was lost", () => {
    try {
      vi.stubGlobal("navigator", { onLine: false });
      expect(isOffline(new TypeError("Failed to fetch"))).toBe(true);
      expect(isOffline({ status: 0 })).toBe(true);
      expect(isOffline({ status: 422 })).toBe(false);
      // Online, a connection reset is a lost answer: the form says it failed and keeps the words.
      vi.stubGlobal("navigator", { onLine: true });
      expect(isOffline(new TypeError("Failed to fetch"))).toBe(false);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
