import { describe, expect, it } from "vitest";
import { dateTimeFormat } from "@/lib/client/date-format";

describe("dateTimeFormat", () => {
  it("shares one format per locale and options, and formats as a fresh one would", () => {
    const options: Intl.DateTimeFormatOptions = { day: "numeric", month: "long", timeZone: "UTC" };
    const ru = dateTimeFormat("ru", options);
    expect(dateTimeFormat("ru", { ...options })).toBe(ru);
    expect(dateTimeFormat("en", options)).not.toBe(ru);
    expect(dateTimeFormat("ru", { ...options, year: "numeric" })).not.toBe(ru);
    const moment = new Date("2026-11-23T15:30:00Z");
    expect(ru.format(moment)).toBe(new Intl.DateTimeFormat("ru", options).format(moment));
    expect(ru.format(moment)).toBe("23 ноября");
    expect(dateTimeFormat("en", options).format(moment)).toBe("November 23");
  });
});
