import { describe, expect, it } from "vitest";
import { ageOf } from "@/lib/server/services/accounts/account-dto";
import { hasImageSignature } from "@/lib/server/storage/image";
import { accountSearchQuery, birthDateSchema, stripName, updateAccountInput } from "@/lib/validation/account";
import { storedKeyOf, storedPathOf } from "@/lib/validation/storage";

describe("stripName", () => {
  it("keeps Latin and Cyrillic letters (ё included), underscore, and - and ' between letters, capped at 50", () => {
    expect(stripName("Anna-Maria O'Neil 2nd")).toBe("Anna-MariaO'Neilnd");
    expect(stripName("Кузнецова-Длиннофамильная")).toBe("Кузнецова-Длиннофамильная");
    expect(stripName("O’Brien")).toBe("O'Brien");
    expect(stripName("-Анна- 'Мария'")).toBe("АннаМария");
    expect(stripName("Пётр Ёлкин_ст.")).toBe("ПётрЁлкин_ст");
    expect(stripName("<script>alert(1)</script>")).toBe("scriptalertscript");
    expect(stripName("Ǆemal Łukasz Ψ")).toBe("ǄemalŁukasz");
    expect(stripName("я".repeat(60))).toHaveLength(50);
  });
});

describe("birthDateSchema", () => {
  it("takes dates and date-times, refuses the future, impossible days and before 1900", () => {
    expect(birthDateSchema.parse("1990-05-01")).toBe("1990-05-01");
    // A date-time is taken to the nearest day: local midnight sent as UTC (UTC+2 here) is the next day.
    expect(birthDateSchema.parse("1990-05-01T22:00:00.000Z")).toBe("1990-05-02");
    expect(birthDateSchema.parse("1990-05-16T21:00:00Z")).toBe("1990-05-17");
    expect(birthDateSchema.parse("1990-05-17T00:00:00Z")).toBe("1990-05-17");
    expect(birthDateSchema.parse("1990-05-17T00:00:00+03:00")).toBe("1990-05-17");
    expect(birthDateSchema.parse("1990-05-17T05:00:00-04:00")).toBe("1990-05-17");
    expect(birthDateSchema.parse("2000-02-29")).toBe("2000-02-29");
    for (const bad of ["1900-02-29", "2023-04-31", "1899-12-31", "9999-01-01", "01.05.1990", "", "1990-05-01Tnoon", "none"]) {
      expect(birthDateSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe("updateAccountInput", () => {
  it("turns empty strings into null and leaves absent fields out", () => {
    expect(updateAccountInput.parse({ city: "", phone: null, about: "x" })).toEqual({ city: null, phone: null, about: "x" });
    expect(updateAccountInput.safeParse({ isDeleted: true }).success).toBe(false);
    expect(updateAccountInput.parse({ isDeleted: false })).toEqual({ isDeleted: false });
  });

  it("reads a birth date of \"\" or \"none\" as no date, and a date-time to the nearest day", () => {
    expect(updateAccountInput.parse({ birthDate: "" })).toEqual({ birthDate: null });
    expect(updateAccountInput.parse({ birthDate: "none" })).toEqual({ birthDate: null });
    expect(updateAccountInput.parse({ birthDate: "1995-04-11T21:00:00.000Z" })).toEqual({ birthDate: "1995-04-12" });
    expect(updateAccountInput.safeParse({ birthDate: "never" }).success).toBe(false);
  });
});

describe("accountSearchQuery", () => {
  it("applies defaults, drops empty values and parses sort", () => {
    expect(accountSearchQuery.parse({ firstName: "", page: "2", sort: "AGE,DESC" })).toEqual({
      isDeleted: false,
      showFriends: false,
      page: 2,
      size: 5,
      sort: { field: "age", dir: "desc" },
    });
    expect(accountSearchQuery.safeParse({ ageFrom: "30", ageTo: "20" }).success).toBe(false);
    expect(accountSearchQuery.safeParse({ size: "101" }).success).toBe(false);
  });
});

describe("stored paths", () => {
  it("round-trips only keys this server makes", () => {
    const key = "0123456789abcdef0123456789abcdef.webp";
    expect(storedKeyOf(storedPathOf(key))).toBe(key);
    for (const p of ["/api/v1/storage/files/../x.webp", "/api/v1/storage/files/ABC.webp", `http://x${storedPathOf(key)}`, `${storedPathOf(key)}?x=1`]) {
      expect(storedKeyOf(p), p).toBeNull();
    }
  });
});

describe("ageOf", () => {
  it("counts whole years, the birthday itself included", () => {
    const now = new Date("2026-03-10T12:00:00Z");
    expect(ageOf("2000-03-10", now)).toBe(26);
    expect(ageOf("2000-03-11", now)).toBe(25);
    expect(ageOf("2004-02-29", new Date("2026-02-28T00:00:00Z"))).toBe(21);
    expect(ageOf("2004-02-29", new Date("2026-03-01T00:00:00Z"))).toBe(22);
    expect(ageOf(null, now)).toBeNull();
  });
});

describe("hasImageSignature", () => {
  it("recognises the accepted formats by their first bytes only", () => {
    const bytes = (...parts: (number[] | string)[]) =>
      new Uint8Array(parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)).concat(Array(16).fill(0)));
    expect(hasImageSignature(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe(true);
    expect(hasImageSignature(bytes([0x89], "PNG\r\n\x1a\n"))).toBe(true);
    expect(hasImageSignature(bytes("GIF89a"))).toBe(true);
    expect(hasImageSignature(bytes("RIFF", [0, 0, 0, 0], "WEBP"))).toBe(true);
    expect(hasImageSignature(bytes([0, 0, 0, 0x1c], "ftypavif"))).toBe(true);
    expect(hasImageSignature(bytes("<svg xmlns="))).toBe(false);
    expect(hasImageSignature(bytes("%PDF-1.7"))).toBe(false);
    expect(hasImageSignature(new Uint8Array([0xff, 0xd8]))).toBe(false);
  });
});
