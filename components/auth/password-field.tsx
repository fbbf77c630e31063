"use client";

import { useTranslations } from "next-intl";
import { useState, type InputHTMLAttributes, type ReactNode, type Ref } from "react";
import { EyeIcon, EyeOffIcon } from "@/components/ui/icons-more";
import { fieldStyles, TextField } from "@/components/ui/text-field";

/** A password input with a show/hide toggle; `children` go below it (the strength meter). */
export function PasswordField({
  label,
  error,
  children,
  ref,
  ...input
}: Omit<InputHTMLAttributes<HTMLInputElement>, "type"> & { label: string; error?: string; children?: ReactNode; ref?: Ref<HTMLInputElement> }) {
  const t = useTranslations("auth");
  const [visible, setVisible] = useState(false);
  return (
    <div>
      <TextField
        ref={ref}
        label={label}
        type={visible ? "text" : "password"}
        error={error}
        addon={
          <button
            type="button"
            className={fieldStyles.addon}
            onClick={() => setVisible((v) => !v)}
            aria-label={visible ? t("hidePassword") : t("showPassword")}
            aria-pressed={visible}
          >
            {visible ? <EyeOffIcon size={18} /> : <EyeIcon size={18} />}
          </button>
        }
        {...input}
      />
      {children}
    </div>
  );
}
