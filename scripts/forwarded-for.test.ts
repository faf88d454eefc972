import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import "./forwarded-for.mjs";
import { clientAddress } from "../lib/rate-limit";

let server: http.Server;
let seen: string | string[] | undefined;
let url: string;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    seen = request.headers["x-forwarded-for"];
    response.end("ok");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("forwarded-for preload", () => {
  it("appends the socket's address, so a forged X-Forwarded-For does not pick the client's counter", async () => {
    await fetch(url, { headers: { "x-forwarded-for": "6.6.6.6" } });
    expect(seen).toBe("6.6.6.6, 127.0.0.1");
    expect(clientAddress({ "x-forwarded-for": seen }, 0)).toBe("127.0.0.1");
    // Behind one proxy, the entry that proxy appended is the client.
    expect(clientAddress({ "x-forwarded-for": seen }, 1)).toBe("6.6.6.6");
  });

  it("sets the header from the socket when the client sent none", async () => {
    await fetch(url);
    expect(seen).toBe("127.0.0.1");
  });
});
