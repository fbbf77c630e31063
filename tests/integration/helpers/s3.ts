import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { vi } from "vitest";

/**
 * A real S3-compatible server (s3rver) in this process, with one bucket, and the app's S3_* settings
 * pointed at it (and DATA_DIR at an empty directory, to show nothing lands on local disk). Settings are
 * read on first use, which comes after this: every test file has its own module graph.
 */
export async function startS3(bucket: string) {
  const s3Dir = mkdtempSync(path.join(os.tmpdir(), "krug-s3rver-"));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "krug-s3-data-"));
  const server = new S3rver({ port: 0, address: "127.0.0.1", silent: true, directory: s3Dir, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  vi.stubEnv("DATA_DIR", dataDir);
  vi.stubEnv("S3_ENDPOINT", endpoint);
  vi.stubEnv("S3_BUCKET", bucket);
  vi.stubEnv("S3_REGION", "us-east-1");
  vi.stubEnv("S3_ACCESS_KEY_ID", "S3RVER");
  vi.stubEnv("S3_SECRET_ACCESS_KEY", "S3RVER");
  const s3 = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
  return {
    s3,
    dataDir,
    async keys(): Promise<string[]> {
      return ((await s3.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key!);
    },
    async stop() {
      s3.destroy();
      await server.close();
      rmSync(s3Dir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
