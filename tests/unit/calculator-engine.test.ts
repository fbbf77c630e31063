import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { displayOf, INITIAL, keyOf, MAX_DIGITS, numberText, press, pressAll } from "@/components/calculator/engine";

const entry = (keys: string) => displayOf(pressAll(keys));

describe("calculator engine", () => {
  it("starts at 0 and types numbers", () => {
    expect(INITIAL.entry).toBe("0");
    expect(entry("123")).toBe("123");
    expect(entry("007")).toBe("7");
  });

  it("does the four operations", () => {
    expect(entry("12+30=")).toBe("42");
    expect(entry("5-8=")).toBe("-3");
    expect(entry("6*7=")).toBe("42");
    expect(entry("1/4=")).toBe("0.25");
  });

  it("chains operations left to right, like a pocket calculator", () => {
    expect(entry("12+3*2=")).toBe("30");
    // The intermediate result shows as soon as the next operator is pressed.
    expect(entry("12+3*")).toBe("15");
  });

  it("hides binary float noise", () => {
    expect(entry("0.1+0.2=")).toBe("0.3");
    expect(entry("1.1*3=")).toBe("3.3");
    expect(entry("1/3*3=")).toBe("1");
  });

  it("has one decimal point per number", () => {
    expect(entry("1.2.3")).toBe("1.23");
    expect(entry(".5")).toBe("0.5");
    expect(entry("2+.5=")).toBe("2.5");
  });

  it("refuses division by zero with an error state, and recovers", () => {
    const state = pressAll("5/0=");
    expect(state.error).toBe("divideByZero");
    expect(press(state, "+").error).toBe("divideByZero");
    expect(pressAll("7", state)).toMatchObject({ error: null, entry: "7" });
    expect(press(state, "clear")).toEqual(INITIAL);
    expect(pressAll("0/0=").error).toBe("divideByZero");
  });

  it("erases the last typed character, never a result", () => {
    expect(entry("123\b")).toBe("12");
    expect(entry("1\b")).toBe("0");
    expect(entry("2+3=\b")).toBe("5");
  });

  it("clears everything", () => {
    expect(pressAll("12+3C")).toEqual(INITIAL);
  });

  it("takes the last operator when two are pressed in a row", () => {
    expect(entry("5+*3=")).toBe("15");
  });

  it("repeats the last operation on a second '='", () => {
    expect(entry("2+3==")).toBe("8");
    expect(entry("10-1===")).toBe("7");
  });

  it("limits an entry to 15 digits", () => {
    expect(entry("1234567890123456789")).toHaveLength(MAX_DIGITS);
  });

  it("writes big and tiny numbers in exponent notation", () => {
    expect(numberText(1e20)).toBe("1e+20");
    expect(numberText(123456789 * 987654321)).toBe("1.21932631e+17");
    expect(numberText(-0)).toBe("0");
  });

  it("maps keyboard keys", () => {
    expect(keyOf("7")).toBe("7");
    expect(keyOf(",")).toBe(".");
    expect(keyOf("x")).toBe("*");
    expect(keyOf("Enter")).toBe("=");
    expect(keyOf("=")).toBe("=");
    expect(keyOf("Backspace")).toBe("backspace");
    expect(keyOf("Escape")).toBe("clear");
    expect(keyOf("a")).toBeNull();
  });

  it("agrees with plain arithmetic on integers", () => {
    fc.assert(
      fc.property(fc.integer({ min: -99999, max: 99999 }), fc.integer({ min: 1, max: 99999 }), fc.constantFrom("+", "-", "*"), (a, b, op) => {
        // Negative numbers are typed as "0 - n".
        const typed = a < 0 ? `0-${-a}=` : `${a}`;
        const expected = op === "+" ? a + b : op === "-" ? a - b : a * b;
        expect(Number(displayOf(pressAll(`${op}${b}=`, pressAll(typed))))).toBe(expected);
      }),
    );
  });
});
