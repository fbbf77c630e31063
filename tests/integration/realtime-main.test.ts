import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "@/db/embedded";
import { signedInAccount } from "./helpers/factories";
import { commitEvent, TestSocket } from "./helpers/ws-client";

// The sidecar exactly as npm start launches it.
const COMMAND = ["--conditions=react-server", "--import", "tsx", "realtime/main.ts"];

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function launch(port: number) {
  const child = spawn(process.execPath, COMMAND, {
    env: { ...process.env, REALTIME_PORT: String(port), PORT: String(port === 3000 ? 3001 : 3000), LOG_LEVEL: "info" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const listening = new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", () => stdout.includes('"realtime listening"') && resolve());
    void exited.then(() => reject(new Error(`exited early: ${stderr}`)));
  });
  listening.catch(() => {}); // awaited only by the tests that expect it to start
  return { child, exited, listening, out: () => stdout, err: () => stderr };
}

describe("realtime/main.ts", () => {
  it("serves sockets, logs JSON lines, and on SIGTERM closes them with 1001 and exits 0", async () => {
    const port = await freePort();
    const proc = launch(port);
    await proc.listening;
    const first = JSON.parse(proc.out().split("\n")[0]);
    expect(first).toMatchObject({ service: "realtime", port, msg: "realtime listening" });

    const alice = await signedInAccount();
    const socket = await TestSocket.open(port, { token: alice.accessToken });
    const id = await commitEvent([alice.id]);
    expect((await socket.nextEvent()).id).toBe(id);

    proc.child.kill("SIGTERM");
    expect((await socket.closed).code).toBe(1001);
    expect(await proc.exited).toBe(0);
  });

  it("prints one clear line and exits 1 when its port is taken", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const proc = launch(port);
      expect(await proc.exited).toBe(1);
      expect(proc.err()).toBe(`Realtime port ${port} is already in use\n`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});
