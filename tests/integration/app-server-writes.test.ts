import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createAppServer } from "@/lib/server/http/app-server";

// docs/adr/0106: an answer leaves in one write to the socket. Next sends a response the way this handler
// does (pipe-readable.ts): flushHeaders(), then at once the first chunk, then end().
const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

type Seen = { headersSentAfterFlush: boolean; socketWrites: number };

async function start(seen: Seen[], body: string[]): Promise<number> {
  const server = createAppServer({
    trustedHops: 0,
    realtimePort: 1,
    handle: (_req, res) => {
      const socket = res.socket as Socket & { _writeGeneric: (...args: unknown[]) => unknown };
      const record: Seen = { headersSentAfterFlush: false, socketWrites: 0 };
      const original = socket._writeGeneric;
      socket._writeGeneric = function (this: Socket, ...args: unknown[]) {
        record.socketWrites++;
        return original.apply(this, args);
      };
      res.on("finish", () => {
        socket._writeGeneric = original;
        seen.push(record);
      });
      res.setHeader("content-type", "application/json");
      res.flushHeaders();
      record.headersSentAfterFlush = res.headersSent;
      for (const chunk of body) res.write(chunk);
      res.end();
    },
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return (server.address() as AddressInfo).port;
}

describe("app server writes", () => {
  it("sends the headers with the first chunk of the body: one write for a whole answer", async () => {
    const seen: Seen[] = [];
    const port = await start(seen, ['{"content":[]}']);
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/post/newsPosts`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await res.json()).toEqual({ content: [] });
    }
    expect(seen).toEqual(Array.from({ length: 3 }, () => ({ headersSentAfterFlush: false, socketWrites: 1 })));
  });

  it("a streamed answer still arrives whole, chunk after chunk", async () => {
    const seen: Seen[] = [];
    const port = await start(seen, ["<p>one</p>", "<p>two</p>", "<p>three</p>"]);
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toBe("<p>one</p><p>two</p><p>three</p>");
    expect(seen[0].headersSentAfterFlush).toBe(false);
  });
});
