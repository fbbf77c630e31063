import Link from "@/components/ui/link";
import { ButtonLink } from "@/components/ui/button";
import styles from "./auth-links.module.css";

/** "Question? Link" line under an auth form (e.g. "No account yet? Sign up"). */
export function AuthPrompt({ question, href, action }: { question?: string; href: string; action: string }) {
  return (
    <p className={styles.prompt}>
      {question ? <span>{question} </span> : null}
      <Link href={href}>{action}</Link>
    </p>
  );
}

/** The one next step after an auth outcome page (e.g. "Sign in" after a successful sign-up). */
export function AuthNextStep({ href, label, variant = "primary" }: { href: string; label: string; variant?: "primary" | "secondary" }) {
  return (
    <ButtonLink href={href} block large variant={variant}>
      {label}
    </ButtonLink>
  );
}
