"use client";

import { useTranslations } from "next-intl";
import { passwordStrength, type PasswordStrength } from "@/lib/validation/password-rules";
import styles from "./password-strength.module.css";

const LEVELS: PasswordStrength[] = ["weak", "average", "reliable"];

/**
 * The strength meter under a new password (spec section 5: weak, average, reliable). It uses the same
 * rule as the server, so "weak" always means the password will be refused.
 */
export function PasswordStrengthMeter({ password }: { password: string }) {
  const t = useTranslations("identity");
  const tv = useTranslations("validation.passwordStrength");
  if (!password) return <p className={styles.hint}>{t("passwordHint")}</p>;
  const level = passwordStrength(password);
  const filled = LEVELS.indexOf(level) + 1;
  return (
    <div className={styles.meter} data-level={level} data-testid="password-strength">
      <div className={styles.bars} aria-hidden="true">
        {LEVELS.map((l, i) => (
          <span key={l} className={i < filled ? styles.on : styles.bar} />
        ))}
      </div>
      <p className={styles.label} aria-live="polite">
        {t("strength", { level: tv(level) })}
      </p>
    </div>
  );
}
