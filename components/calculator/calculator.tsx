"use client";

import { useLocale, useTranslations } from "next-intl";
import { useEffect, useReducer, useState, type CSSProperties } from "react";
import { BackspaceIcon, CopyIcon } from "@/components/ui/icons-more";
import { useHydrated } from "@/components/layout/use-hydrated";
import { notify } from "@/lib/client/notify";
import { displayOf, INITIAL, keyOf, numberText, OPERATOR_SIGN, press, type CalcState, type Key } from "./engine";
import styles from "./calculator.module.css";

type Pad = { key: Key; label: string; name?: "clear" | "backspace" | "divide" | "multiply" | "subtract" | "add" | "equals" | "decimal"; kind?: "op" | "fn" | "eq"; wide?: boolean };

const PAD: Pad[] = [
  { key: "clear", label: "C", name: "clear", kind: "fn" },
  { key: "backspace", label: "⌫", name: "backspace", kind: "fn" },
  { key: "/", label: "÷", name: "divide", kind: "op" },
  { key: "*", label: "×", name: "multiply", kind: "op" },
  { key: "7", label: "7" },
  { key: "8", label: "8" },
  { key: "9", label: "9" },
  { key: "-", label: "−", name: "subtract", kind: "op" },
  { key: "4", label: "4" },
  { key: "5", label: "5" },
  { key: "6", label: "6" },
  { key: "+", label: "+", name: "add", kind: "op" },
  { key: "1", label: "1" },
  { key: "2", label: "2" },
  { key: "3", label: "3" },
  { key: "=", label: "=", name: "equals", kind: "eq" },
  { key: "0", label: "0", wide: true },
  { key: ".", label: ".", name: "decimal" },
];

/** Shows a canonical number the local way: decimal comma in Russian, a real minus sign. */
function shown(text: string, separator: string): string {
  return text.replace(".", separator).replace(/^-/, "−");
}

function expressionOf(state: CalcState, separator: string): string {
  const n = (value: number) => shown(numberText(value), separator);
  if (state.operator && state.stored !== null) return `${n(state.stored)} ${OPERATOR_SIGN[state.operator]}`;
  if (state.history) {
    const { left, operator, right } = state.history;
    return `${n(left)} ${OPERATOR_SIGN[operator]} ${n(right)} =`;
  }
  return "";
}

function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
}

export function Calculator() {
  const t = useTranslations("calculator");
  const locale = useLocale();
  const separator = locale === "ru" ? "," : ".";
  const [state, dispatch] = useReducer(press, INITIAL);
  const [held, setHeld] = useState<Key | null>(null);
  // True once hydrated, i.e. after the keyboard listener below is attached (tests wait for it, as a
  // person waits for a page to come alive).
  const hydrated = useHydrated();

  // The keyboard works anywhere on the page, except while typing in a field (e.g. the top-bar search).
  useEffect(() => {
    function down(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey || isTyping(event.target)) return;
      const key = keyOf(event.key);
      if (!key) return;
      // Enter means "=", not "activate the focused key"; "/" must not open the browser's quick find.
      event.preventDefault();
      dispatch(key);
      setHeld(key);
    }
    function up() {
      setHeld(null);
    }
    window.addEventListener("keydown", down);
    window.addEventListener("keyup", up);
    return () => {
      window.removeEventListener("keydown", down);
      window.removeEventListener("keyup", up);
    };
  }, []);

  const value = shown(displayOf(state), separator);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify({ status: "success", message: t("copied", { value }) });
    } catch {
      notify({ status: "error", message: t("copyFailed") });
    }
  };

  return (
    <div className={styles.calculator} data-testid="calculator" data-ready={hydrated ? "true" : undefined}>
      <div className={styles.screen}>
        <div className={styles.expression} aria-hidden="true" data-testid="calc-expression">
          {expressionOf(state, separator)}
        </div>
        <output
          className={`${styles.value} ${state.error ? styles.error : ""}`}
          aria-live="polite"
          aria-label={t("display")}
          data-testid="calc-display"
          // The font shrinks with the number of characters so a long result fits whole (issue 14 item 10).
          style={{ "--chars": Math.max(value.length, 1) } as CSSProperties}
        >
          {state.error ? t("divideByZero") : value}
        </output>
        <button type="button" className={styles.copy} onClick={() => void copy()} aria-label={t("copy")} title={t("copy")} disabled={Boolean(state.error)}>
          <CopyIcon size={18} />
        </button>
      </div>
      <div className={styles.pad} role="group" aria-label={t("keypad")}>
        {PAD.map((pad) => (
          <button
            key={pad.key}
            type="button"
            className={[styles.key, pad.kind && styles[pad.kind], pad.wide && styles.wide, held === pad.key && styles.held].filter(Boolean).join(" ")}
            aria-label={pad.name ? t(pad.name) : undefined}
            aria-pressed={pad.kind === "op" ? state.operator === pad.key && state.fresh : undefined}
            onClick={() => dispatch(pad.key)}
          >
            {pad.key === "backspace" ? <BackspaceIcon size={22} /> : pad.key === "." ? separator : pad.label}
          </button>
        ))}
      </div>
      <p className={styles.hint}>{t("keyboardHint")}</p>
    </div>
  );
}
