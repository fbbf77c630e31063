/**
 * The calculator's arithmetic as a pure state machine (immediate execution, like a pocket calculator):
 * "12 + 3 × 2 =" gives 30. Results are kept to 15 significant digits (which drops binary float noise:
 * 0.1 + 0.2 = 0.3) and shown to 12, so 1 ÷ 3 × 3 shows 1. Division by zero is an error state.
 */

export type Operator = "+" | "-" | "*" | "/";
export type Key = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9" | "." | Operator | "=" | "clear" | "backspace";

export type CalcState = {
  /** The entry being typed or the last result (full precision), in canonical form ("-12.5"). */
  entry: string;
  /** The left operand waiting for its right-hand side. */
  stored: number | null;
  operator: Operator | null;
  /** The next digit starts a new number (after an operator or "="). */
  fresh: boolean;
  /** What was just computed, e.g. "12 × 3 =" (operands in canonical form). */
  history: { left: number; operator: Operator; right: number } | null;
  /** The operation "=" repeats when pressed again. */
  repeat: { operator: Operator; right: number } | null;
  error: "divideByZero" | null;
};

export const MAX_DIGITS = 15;

export const INITIAL: CalcState = {
  entry: "0",
  stored: null,
  operator: null,
  fresh: false,
  history: null,
  repeat: null,
  error: null,
};

const KEPT_DIGITS = 15;
const SHOWN_DIGITS = 12;

export function round(value: number, digits = KEPT_DIGITS): number {
  const r = Number.parseFloat(value.toPrecision(digits));
  return Object.is(r, -0) ? 0 : r;
}

/** A number as shown: 12 significant digits, plain where they fit, exponent notation beyond. */
export function numberText(value: number): string {
  const shown = round(value, SHOWN_DIGITS);
  const plain = String(shown);
  if (!plain.includes("e") && plain.replace(/[-.]/g, "").length <= MAX_DIGITS) return plain;
  return shown.toExponential(8).replace(/\.?0+e/, "e");
}

/** What the screen shows: the entry as typed, or a result rounded for display. */
export function displayOf(state: CalcState): string {
  return state.fresh ? numberText(Number(state.entry)) : state.entry;
}

function apply(left: number, operator: Operator, right: number): number | "divideByZero" {
  switch (operator) {
    case "+":
      return round(left + right);
    case "-":
      return round(left - right);
    case "*":
      return round(left * right);
    case "/":
      return right === 0 ? "divideByZero" : round(left / right);
  }
}

function digitsIn(entry: string): number {
  return entry.replace(/[-.]/g, "").length;
}

function typeDigit(state: CalcState, digit: string): CalcState {
  if (state.fresh) return { ...state, entry: digit, fresh: false };
  if (state.entry === "0") return { ...state, entry: digit };
  if (state.entry === "-0") return { ...state, entry: `-${digit}` };
  if (digitsIn(state.entry) >= MAX_DIGITS) return state;
  return { ...state, entry: state.entry + digit };
}

function typePoint(state: CalcState): CalcState {
  if (state.fresh) return { ...state, entry: "0.", fresh: false };
  if (state.entry.includes(".") || state.entry.includes("e")) return state;
  return { ...state, entry: `${state.entry}.` };
}

function compute(state: CalcState, left: number, operator: Operator, right: number, patch: Partial<CalcState>): CalcState {
  const result = apply(left, operator, right);
  if (result === "divideByZero") return { ...INITIAL, error: "divideByZero", history: { left, operator, right } };
  return { ...state, ...patch, entry: String(result), fresh: true, history: { left, operator, right } };
}

function pressOperator(state: CalcState, operator: Operator): CalcState {
  const current = Number(state.entry);
  // Changing one's mind: "5 + ×" means "5 ×".
  if (state.operator && state.fresh) return { ...state, operator };
  if (state.operator && state.stored !== null) {
    const next = compute(state, state.stored, state.operator, current, { operator, repeat: null });
    return next.error ? next : { ...next, stored: Number(next.entry) };
  }
  return { ...state, stored: current, operator, fresh: true, repeat: null, history: null };
}

function pressEquals(state: CalcState): CalcState {
  const current = Number(state.entry);
  if (state.operator && state.stored !== null) {
    return compute(state, state.stored, state.operator, current, {
      operator: null,
      stored: null,
      repeat: { operator: state.operator, right: current },
    });
  }
  if (state.repeat) return compute(state, current, state.repeat.operator, state.repeat.right, {});
  return state;
}

function pressBackspace(state: CalcState): CalcState {
  // A result is not an entry: there is nothing typed to erase.
  if (state.fresh) return state;
  const entry = state.entry.slice(0, -1);
  return { ...state, entry: entry === "" || entry === "-" ? "0" : entry };
}

export function press(state: CalcState, key: Key): CalcState {
  if (key === "clear") return INITIAL;
  // After an error only a new number (or clear) makes sense; it starts from scratch.
  if (state.error) {
    if (/^[0-9]$/.test(key)) return typeDigit({ ...INITIAL, fresh: true }, key);
    if (key === ".") return typePoint({ ...INITIAL, fresh: true });
    return state;
  }
  if (/^[0-9]$/.test(key)) return typeDigit(state, key);
  switch (key) {
    case ".":
      return typePoint(state);
    case "+":
    case "-":
    case "*":
    case "/":
      return pressOperator(state, key);
    case "=":
      return pressEquals(state);
    case "backspace":
      return pressBackspace(state);
    default:
      return state;
  }
}

/** Presses a sequence of keys, e.g. pressAll("12+3=") ("\b" is backspace, "C" clear) — for tests. */
export function pressAll(keys: string, state: CalcState = INITIAL): CalcState {
  return [...keys].reduce((s, ch) => {
    const key = ch === "\b" ? "backspace" : keyOf(ch);
    return key ? press(s, key) : s;
  }, state);
}

/** The calculator key of a keyboard key (event.key), or null. */
export function keyOf(key: string): Key | null {
  if (/^[0-9]$/.test(key)) return key as Key;
  switch (key) {
    case ".":
    case ",":
    case "Decimal":
      return ".";
    case "+":
    case "-":
    case "*":
    case "/":
      return key;
    case "x":
    case "X":
    case "×":
      return "*";
    case "÷":
      return "/";
    case "−":
      return "-";
    case "=":
    case "Enter":
      return "=";
    case "Backspace":
      return "backspace";
    case "Escape":
    case "Delete":
    case "c":
    case "C":
      return "clear";
    default:
      return null;
  }
}

export const OPERATOR_SIGN: Record<Operator, string> = { "+": "+", "-": "−", "*": "×", "/": "÷" };
