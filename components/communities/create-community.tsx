"use client";

import { useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { GroupModal } from "@/components/chat/group-modal";
import { Button } from "@/components/ui/button";
import { FormAlert } from "@/components/ui/text-field";
import { api } from "@/lib/client/api";
import type { CommunityDto } from "@/lib/validation/communities-shared";
import { CommunityFields, useFieldErrors, type CommunityValues, type FieldErrors } from "./community-fields";
import { useFailureText } from "./community-text";
import styles from "./communities.module.css";

const EMPTY: CommunityValues = { name: "", description: "", type: "OPEN", wall: "MEMBERS" };

/**
 * «Создать сообщество» on /communities (issue 42): a dialog with the community's fields, then POST
 * communities and its page. The API's validation texts are shown by the fields they are about.
 */
export function CreateCommunityButton() {
  const t = useTranslations("communities");
  const router = useRouter();
  const failureText = useFailureText();
  const fieldErrors = useFieldErrors();
  const [open, setOpen] = useState(false);
  const [values, setValues] = useState<CommunityValues>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  function close() {
    if (busy) return;
    setOpen(false);
    setErrors({});
    setFailure(null);
  }

  async function create() {
    if (busy) return;
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      const created = await api<CommunityDto>("communities", {
        method: "POST",
        body: { name: values.name, description: values.description, type: values.type, wall: values.wall },
      });
      setValues(EMPTY);
      router.push(`/community/${created.id}`);
    } catch (err) {
      const { fields, rest } = fieldErrors(err);
      setErrors(fields);
      if (rest) setFailure(failureText(err));
      setBusy(false);
    }
  }

  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="create-community">
        <span>{t("create")}</span>
      </Button>
      <GroupModal
        open={open}
        onClose={close}
        title={t("createTitle")}
        closeLabel={t("close")}
        testId="create-community-dialog"
        footer={
          <>
            <Button variant="ghost" onClick={close} disabled={busy}>
              {t("cancel")}
            </Button>
            <Button type="submit" form="create-community-form" disabled={busy} data-testid="create-community-submit">
              {busy ? t("creating") : t("createSubmit")}
            </Button>
          </>
        }
      >
        <form
          id="create-community-form"
          className={styles.form}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <CommunityFields values={values} onChange={setValues} errors={errors} disabled={busy} />
          {failure ? <FormAlert>{failure}</FormAlert> : null}
        </form>
      </GroupModal>
    </>
  );
}
