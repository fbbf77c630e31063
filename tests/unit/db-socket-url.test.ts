// The embedded database's socket URL (docs/adr/0191): libpq's `?host=<directory>` becomes postgres.js's
// `host` option and leaves the URL; any other URL passes as it is. The socket's directory is the
// cluster's own, unless its address would not fit or its path needs quoting.
import { describe, expect, it } from "vitest";
import { postgresTarget } from "@/db/client";
import { socketDirFor } from "@/db/embedded";

describe("postgresTarget", () => {
  it("turns ?host=<directory> into the host option and keeps the rest of the URL", () => {
    expect(postgresTarget("postgres://postgres:pw@127.0.0.1:5433/krug?host=%2Fvar%2Flib%2Fkrug%2Fpg")).toEqual({
      url: "postgres://postgres:pw@127.0.0.1:5433/krug",
      options: { host: "/var/lib/krug/pg" },
    });
    expect(postgresTarget("postgres://u@localhost:5432/krug?sslmode=disable&host=/run/postgresql")).toEqual({
      url: "postgres://u@localhost:5432/krug?sslmode=disable",
      options: { host: "/run/postgresql" },
    });
  });
  it("leaves URLs without a socket alone", () => {
    for (const url of ["postgres://postgres@127.0.0.1:5432/postgres", "postgres://u@db:5432/krug?sslmode=require", "postgres://u@db/krug?host=db2"]) {
      expect(postgresTarget(url)).toEqual({ url, options: {} });
    }
  });
});

describe("socketDirFor", () => {
  it("is the cluster's directory when its socket's address fits and the path is plain", () => {
    expect(socketDirFor("/work/main/.data/pg")).toBe(process.platform === "win32" ? null : "/work/main/.data/pg");
  });
  it("keeps TCP for a path too long for a socket's address or one that would need quoting", () => {
    expect(socketDirFor(`/srv/${"x".repeat(95)}/pg`)).toBeNull();
    expect(socketDirFor("/srv/my data/pg")).toBeNull();
    expect(socketDirFor("/srv/it's/pg")).toBeNull();
  });
});
