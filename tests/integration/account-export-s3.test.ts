import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as exportGet, POST as exportPost } from "@/app/api/v1/account/export/route";
import { GET as archiveGet } from "@/app/api/v1/account/export/archive/[id]/route";
import { PUT as meRoute } from "@/app/api/v1/account/me/route";
import { POST as storageRoute } from "@/app/api/v1/storage/route";
import { getDb, getSql } from "@/db/client";
import { getBoss, QUEUES } from "@/lib/server/jobs/boss";
import { purgeExpiredExports, runAccountExport } from "@/lib/server/services/account-export/job";
import type { ExportJob } from "@/lib/server/services/account-export/requests";
import { sendMessage } from "@/lib/server/services/dialogs/messages";
import { getBlobStore } from "@/lib/server/storage/blob-store";
import { storedKeyOf } from "@/lib/validation/storage";
import { unzip } from "@/tests/support/zip";
import { signedInAccount } from "./helpers/factories";
import { call } from "./helpers/http";
import { startS3 } from "./helpers/s3";
import { filesUnder, noisePng, upload } from "./helpers/upload";
import { newPost } from "./post-support";

// The data export on S3 (docs/adr/0127): the archive goes to the bucket as a multipart upload (over 5 MiB)
// and comes back from it, images included; nothing lands on local disk. s3rver in this process.
let s3: Awaited<ReturnType<typeof startS3>>;

beforeAll(async () => {
  s3 = await startS3("krug-export-test");
});

afterAll(async () => {
  await s3?.stop();
});

const bucketKeys = () => s3.keys();

describe("download my data on S3", () => {
  it("streams the archive into the bucket (multipart) and back, images included; the sweep deletes it there", async () => {
    expect(getBlobStore().kind).toBe("s3");
    const owner = await signedInAccount();
    const paths: string[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await upload(storageRoute, { token: owner.accessToken, bytes: await noisePng(300, 300) });
      expect(res.status).toBe(200);
      paths.push(res.body.data);
    }
    expect((await call(meRoute, { method: "PUT", token: owner.accessToken, body: { photo: paths[0], profileCover: paths[1] } })).status).toBe(200);
    await newPost(owner.ctx, { imagePath: paths[2] });
    await newPost(owner.ctx, { imagePath: paths[3] });
    // Over 5 MiB of archive, so the upload is multipart: a long dialog of poorly compressible text.
    const partner = await signedInAccount();
    const { message } = await sendMessage({ ctx: owner.ctx, input: { recipientId: partner.id, messageText: "Начало" } });
    await getSql()`
      insert into messages (dialog_id, author_id, recipient_id, message_text)
      select ${message.dialogId}, ${owner.id}, ${partner.id}, (select string_agg(md5(random()::text || g || x), '') from generate_series(1, 120) x)
      from generate_series(1, 2500) g`;

    expect((await call(exportPost, { method: "POST", token: owner.accessToken })).status).toBe(202);
    const boss = await getBoss();
    const [job] = await boss.fetch<ExportJob>(QUEUES.export);
    expect(await runAccountExport(getDb(), job.data.exportId)).toBe("READY");
    await boss.complete(QUEUES.export, job.id);

    const state = (await call(exportGet, { token: owner.accessToken })).body;
    expect(state.size).toBeGreaterThan(5 * 1024 * 1024);
    const archives = (await bucketKeys()).filter((k) => k.startsWith("uploads/export-"));
    expect(archives).toHaveLength(1);
    expect(filesUnder(path.join(s3.dataDir, "uploads"))).toEqual([]);

    const id = state.url.split("/").pop();
    const res = await archiveGet(
      new (await import("next/server")).NextRequest(new URL(state.url, "http://localhost:3000"), { headers: { authorization: `Bearer ${owner.accessToken}` } }),
      { params: Promise.resolve({ id }) },
    );
    expect(res.status).toBe(200);
    const files = await unzip(Buffer.from(await res.arrayBuffer()));
    for (const p of paths) {
      const key = storedKeyOf(p)!;
      const stored = await getBlobStore().get(key);
      expect(files.get(`images/${key}`)?.equals(Buffer.from(await new Response(stored!.body).arrayBuffer()))).toBe(true);
    }

    await getSql()`update account_exports set expires_at = now() - interval '1 second' where id = ${id}`;
    expect(await purgeExpiredExports(getDb())).toBe(1);
    expect((await bucketKeys()).filter((k) => k.startsWith("uploads/export-"))).toEqual([]);
    // Four uploads, a 2,500-message dialog and a 7 MB archive through s3rver: more than the default 20 s on a busy machine.
  }, 90_000);
});
