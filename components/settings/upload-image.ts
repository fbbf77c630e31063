import { ApiError } from "@/lib/client/api";
import { refreshSession } from "@/lib/client/auth-refresh";

type Progress = (percent: number) => void;

function once(endpoint: string, file: File, onProgress: Progress, signal?: AbortSignal): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    // XMLHttpRequest because fetch() reports no upload progress.
    const xhr = new XMLHttpRequest();
    xhr.open("POST", `/api/v1/${endpoint}`);
    xhr.withCredentials = true;
    xhr.responseType = "json";
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(Math.min(99, Math.round((e.loaded / e.total) * 100)));
    };
    xhr.onload = () => resolve({ status: xhr.status, body: xhr.response });
    xhr.onerror = () => reject(new ApiError(0, "network", ""));
    xhr.onabort = () => reject(new DOMException("aborted", "AbortError"));
    signal?.addEventListener("abort", () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append("file", file);
    xhr.send(form);
  });
}

/**
 * Uploads one image (POST /storage?type=IMAGE, multipart `file`; a post's photo goes to
 * post/storagePostPhoto?type=IMAGE) and returns the stored path (`data` of the answer, spec section 7). A 401 refreshes the session once and retries, like api().
 * A refusal throws ApiError with the server's message, already in the user's language.
 */
export async function uploadImage(file: File, onProgress: Progress, signal?: AbortSignal, endpoint = "storage?type=IMAGE"): Promise<string> {
  onProgress(0);
  let res = await once(endpoint, file, onProgress, signal);
  if (res.status === 401 && (await refreshSession()) === "ok") res = await once(endpoint, file, onProgress, signal);
  const body = res.body as { data?: string; error?: { code?: string; message?: string } } | null;
  if (res.status >= 200 && res.status < 300 && typeof body?.data === "string") {
    onProgress(100);
    return body.data;
  }
  throw new ApiError(res.status, body?.error?.code ?? "unknown", body?.error?.message ?? "");
}
