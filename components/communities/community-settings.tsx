"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useRef, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { FormAlert } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import { notify } from "@/lib/client/notify";
import type { CommunityDto } from "@/lib/validation/communities-shared";
import { CommunityFields, useFieldErrors, type CommunityValues, type FieldErrors } from "./community-fields";
import { useFailureText } from "./community-text";
import styles from "./communities.module.css";

const ACCEPT = "image/jpeg,image/png,image/webp,image/gif,image/avif";

const valuesOf = (c: CommunityDto): CommunityValues => ({ name: c.name, description: c.description, type: c.type, wall: c.wall });

/**
 * A community's settings for its admins (issue 42): name, description, type and wall (PATCH with what
 * changed), the photo and the cover (uploaded as a profile photo is, then PATCH), and for the owner the
 * deletion, confirmed first.
 */
export function CommunitySettings({ community, restoreDays }: { community: CommunityDto; restoreDays: number }) {
  const t = useTranslations("communities");
  const router = useRouter();
  const failureText = useFailureText();
  const fieldErrors = useFieldErrors();
  const [, startTransition] = useTransition();
  const [values, setValues] = useState<CommunityValues>(() => valuesOf(community));
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState<"save" | "photo" | "cover" | "delete" | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const photoFile = useRef<HTMLInputElement>(null);
  const coverFile = useRef<HTMLInputElement>(null);

  const saved = valuesOf(community);
  const changed = (Object.keys(values) as (keyof CommunityValues)[]).filter((k) => values[k] !== saved[k]);

  async function patch(body: Record<string, unknown>, kind: "save" | "photo" | "cover", done: string) {
    setBusy(kind);
    setFailure(null);
    setErrors({});
    try {
      const next = await api<CommunityDto>(`communities/${community.id}`, { method: "PATCH", body });
      if (kind === "save") setValues(valuesOf(next));
      notify({ status: "success", message: done });
      startTransition(() => router.refresh());
    } catch (err) {
      const { fields, rest } = fieldErrors(err);
      setErrors(fields);
      if (rest) setFailure(failureText(err));
    } finally {
      setBusy(null);
    }
  }

  async function upload(file: File | undefined, kind: "photo" | "cover") {
    if (!file) return;
    setBusy(kind);
    setFailure(null);
    try {
      const { uploadImage } = await import("@/components/settings/upload-image");
      const path = await uploadImage(file, () => {});
      await patch({ [kind]: path }, kind, kind === "photo" ? t("photoChanged") : t("coverChanged"));
    } catch (err) {
      setFailure(failureText(err));
      setBusy(null);
    }
  }

  async function remove() {
    setBusy("delete");
    setFailure(null);
    try {
      await api(`communities/${community.id}`, { method: "DELETE" });
      setConfirmDelete(false);
      startTransition(() => router.refresh());
    } catch (err) {
      setFailure(failureText(err));
    } finally {
      setBusy(null);
    }
  }

  const fileInput = (ref: React.RefObject<HTMLInputElement | null>, kind: "photo" | "cover") => (
    <input
      ref={ref}
      type="file"
      accept={ACCEPT}
      className="visually-hidden"
      tabIndex={-1}
      aria-hidden="true"
      onChange={(e) => {
        const picked = e.target.files?.[0];
        e.target.value = "";
        void upload(picked, kind);
      }}
      data-testid={`community-${kind}-file`}
    />
  );

  return (
    <div className={styles.settings} data-testid="community-settings">
      <form
        className={styles.form}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (changed.length > 0) void patch(Object.fromEntries(changed.map((k) => [k, values[k]])), "save", t("saved"));
        }}
      >
        <CommunityFields values={values} onChange={setValues} errors={errors} disabled={busy !== null} />
        <div className={styles.actionsRow}>
          <Button type="submit" disabled={changed.length === 0 || busy !== null} data-testid="community-save">
            {busy === "save" ? t("saving") : t("save")}
          </Button>
        </div>
      </form>
      <div className={styles.imageSettings}>
        <p className={styles.fieldLabel}>{t("imagesLabel")}</p>
        <div className={styles.actionsRow}>
          {fileInput(photoFile, "photo")}
          {fileInput(coverFile, "cover")}
          <Button variant="secondary" onClick={() => photoFile.current?.click()} disabled={busy !== null} data-testid="community-photo-change">
            {busy === "photo" ? t("uploading") : community.photo ? t("changePhoto") : t("addPhoto")}
          </Button>
          {community.photo ? (
            <Button variant="ghost" onClick={() => void patch({ photo: null }, "photo", t("photoRemoved"))} disabled={busy !== null}>
              {t("removePhoto")}
            </Button>
          ) : null}
          <Button variant="secondary" onClick={() => coverFile.current?.click()} disabled={busy !== null} data-testid="community-cover-change">
            {busy === "cover" ? t("uploading") : community.cover ? t("changeCover") : t("addCover")}
          </Button>
          {community.cover ? (
            <Button variant="ghost" onClick={() => void patch({ cover: null }, "cover", t("coverRemoved"))} disabled={busy !== null}>
              {t("removeCover")}
            </Button>
          ) : null}
        </div>
      </div>
      {failure && !confirmDelete ? <FormAlert>{failure}</FormAlert> : null}
      {community.role === "OWNER" ? (
        <div className={styles.danger}>
          <p className={styles.dangerText}>{t("deleteHint")}</p>
          <Button variant="ghost" className={styles.dangerButton} onClick={() => setConfirmDelete(true)} disabled={busy !== null} data-testid="community-delete">
            {t("delete")}
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        title={t("deleteTitle")}
        text={t("deleteText", { name: community.name, days: restoreDays })}
        cancelLabel={t("cancel")}
        confirmLabel={t("deleteConfirm")}
        busy={busy === "delete"}
        busyLabel={t("deleting")}
        failure={confirmDelete ? failure : null}
        onConfirm={() => void remove()}
      />
    </div>
  );
}
