import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import net from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { declaredBodyRefusal, SMALL_BODY_MAX_BYTES } from "../lib/http/request-body-limits.mjs";
import { requestPath } from "./body-guard.mjs";

/**
 * A web server in its own process with the guard preloaded as serve.ts preloads it
 * (`--import`), so that the patched `http.Server` stays out of this test process. Every
 * request that reaches its handler is read to the end and answered 200 with the byte count.
 */
const SERVER = `
import http from "node:http";
const server = http.createServer((request, response) => {
  let bytes = 0;
  request.on("data", (chunk) => { bytes += chunk.length; });
  request.on("end", () => response.end("handled " + bytes));
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));
`;

let child: ChildProcess;
let port: number;
/** What the server process wrote to stderr (the guard's log). */
let log = "";

beforeAll(async () => {
  const guard = pathToFileURL(path.join(import.meta.dirname, "body-guard.mjs")).href;
  child = spawn(process.execPath, [`--import=${guard}`, "--input-type=module", "-e", SERVER], { stdio: ["ignore", "pipe", "pipe"] });
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => (log += chunk));
  const [line] = (await once(child.stdout!, "data")) as [Buffer];
  port = Number(line.toString().trim());
});

afterAll(() => {
  child?.kill();
});

/** What a raw client saw: the answer's first bytes and how much of its body it could send. */
interface Exchange {
  answer: string;
  sent: number;
  /** how the connection ended: "end" (closed cleanly) or the socket error's code */
  ending: string;
}

/**
 * Sends `method target` declaring a body of `declared` bytes, then writes zeros (64 KiB at a
 * time, up to `declared`) for as long as the server takes them, and collects the answer.
 */
function exchange(method: string, target: string, declared: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    let sent = 0;
    let ending = "";
    const chunk = Buffer.alloc(64 * 1024);
    const pump = () => {
      while (sent < declared && !socket.destroyed) {
        const n = Math.min(chunk.length, declared - sent);
        sent += n;
        if (!socket.write(chunk.subarray(0, n))) return void socket.once("drain", pump);
      }
    };
    socket.on("connect", () => {
      socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: ${declared}\r\nConnection: close\r\n\r\n`);
      pump();
    });
    socket.on("data", (data) => (answer += data.toString("latin1")));
    socket.on("error", (error: NodeJS.ErrnoException) => (ending ||= error.code ?? error.message));
    socket.on("close", () => resolve({ answer, sent, ending: ending || "end" }));
    socket.on("end", () => socket.end());
  });
}

describe("body guard (preloaded into the web server)", () => {
  it("answers a 60 MB body to a page 413 and closes the connection without reading it", async () => {
    const declared = 60 * 1024 * 1024;
    const got = await exchange("POST", "/signup", declared);
    // The client could send no more than the sockets' buffers hold before the server closed.
    expect(got.sent).toBeLessThan(declared / 4);
    // The 413 arrives unless the reset overtook it; the handler never saw the request.
    expect(got.answer).not.toContain("handled");
    if (got.answer) {
      expect(got.answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(got.answer).toMatch(/connection: close/i);
      expect(got.answer).toContain("the largest accepted here is 1 MB");
    } else expect(got.ending).toMatch(/ECONNRESET|EPIPE/);
  });

  it("answers the API's JSON shape under /api/", async () => {
    const got = await exchange("POST", "/api/v1/nope?x=1", 2 * 1024 * 1024);
    expect(got.answer).not.toContain("handled");
    if (got.answer) {
      expect(got.answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(got.answer).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(got.answer.slice(got.answer.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: { code: "too_large" } });
    } else expect(got.ending).toMatch(/ECONNRESET|EPIPE/);
  });

  it("lets through bodies up to 1 MB, and larger ones to the upload routes (which stream them with their own limit)", async () => {
    const atLimit = await exchange("POST", "/signup", SMALL_BODY_MAX_BYTES);
    expect(atLimit.answer).toMatch(/^HTTP\/1\.1 200 [^]*handled 1048576$/);
    const upload = await exchange("POST", "/api/v1/phases/abc_D-1/submissions", 3 * 1024 * 1024);
    expect(upload.answer).toMatch(/^HTTP\/1\.1 200 [^]*handled 3145728$/);
    const gold = await exchange("POST", "http://127.0.0.1/api/v1/phases/p1/gold/", 3 * 1024 * 1024);
    expect(gold.answer).toMatch(/handled 3145728$/);
  });
});

describe("body guard log", () => {
  it("reports refusals at most once a minute, so that a flood of them cannot grow the log", async () => {
    for (let i = 0; i < 5; i++) await exchange("POST", "/", 2 * 1024 * 1024);
    // The first refusal of the process (in the tests above, or here) is reported at once; the
    // others wait for the next report, a minute later.
    expect(log.match(/\[body-guard\] refused \d+ /g)).toEqual(["[body-guard] refused 1 "]);
  });
});

describe("declaredBodyRefusal and requestPath", () => {
  it("judges only a declared Content-Length, by the path as sent", () => {
    expect(declaredBodyRefusal("/", String(SMALL_BODY_MAX_BYTES + 1))).toMatch(/1\.0 MB; the largest accepted here is 1 MB/);
    expect(declaredBodyRefusal("/", String(SMALL_BODY_MAX_BYTES))).toBeNull();
    expect(declaredBodyRefusal("/", undefined)).toBeNull();
    expect(declaredBodyRefusal("/", "12, 13")).toBeNull();
    expect(declaredBodyRefusal("/api/v1/phases/x/submissions", "99999999")).toBeNull();
    // An encoded or malformed id is not an upload route.
    expect(declaredBodyRefusal("/api/v1/phases/%2e%2e/submissions", "99999999")).not.toBeNull();
    expect(declaredBodyRefusal("/api/v1/phases/x/submissions/extra", "99999999")).not.toBeNull();
  });

  it("takes the path from origin-form and absolute-form targets", () => {
    expect(requestPath("/a/b?c=d")).toBe("/a/b");
    expect(requestPath("/a#x")).toBe("/a");
    expect(requestPath("http://h:3000/api/v1/x?y")).toBe("/api/v1/x");
    expect(requestPath("https://h")).toBe("/");
    expect(requestPath(undefined)).toBe("/");
  });
});
