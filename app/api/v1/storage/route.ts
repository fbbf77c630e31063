// POST /api/v1/storage?type=IMAGE — multipart field `file` → {"data": "<URL path of the stored image>", "fileName": the same}
import { queryOf } from "@/lib/server/http/request";
import { withAuth } from "@/lib/server/http/with-auth";
import { readUploadedFile } from "@/lib/server/storage/read-upload";
import { uploadImage } from "@/lib/server/storage/upload-image";

export const POST = withAuth(async ({ req, ctx }) => {
  const { path } = await uploadImage({ ctx, input: queryOf(req), readFile: () => readUploadedFile(req), purpose: "account" });
  // `fileName` repeats the stored path for the original client of this contract, which reads it there.
  return Response.json({ data: path, fileName: path });
});
