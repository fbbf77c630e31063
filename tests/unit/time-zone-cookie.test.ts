import { describe, expect, it } from "vitest";
import { knownTimeZone } from "@/lib/i18n/time-zone";

// ADR 101: the "tz" cookie is client input; the server renders times in it only when it names a zone.
describe("knownTimeZone", () => {
  it("accepts the zone names browsers report", () => {
    for (const zone of ["Europe/Moscow", "Asia/Vladivostok", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT+3", "America/Port-au-Prince"]) {
      expect(knownTimeZone(zone)).toBe(zone);
    }
  });

  it("refuses what names no zone, however it is spelled", () => {
    for (const value of [undefined, null, "", "Mars/Olympus_Mons", "Europe/Moscow; path=/", "<script>", "Europe/Moscow\n", "a".repeat(65), "../../etc/passwd"]) {
      expect(knownTimeZone(value)).toBeNull();
    }
  });

  it("answers the same for a name it has seen before", () => {
    expect(knownTimeZone("Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(knownTimeZone("Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(knownTimeZone("Asia/Tokio")).toBeNull();
  });
});
