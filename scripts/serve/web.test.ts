import { describe, expect, it } from "vitest";
import { preload } from "./environment";
import { webServerCommand, webServerEnv } from "./web";

describe("webServerEnv", () => {
  const childEnv = { NODE_ENV: "test", NODE_OPTIONS: "--max-old-space-size=512", PORT: "3000" };
  const guards = `--max-old-space-size=512 ${preload("forwarded-for.mjs")} ${preload("body-guard.mjs")}`;

  it("runs next start with NODE_ENV=production and the request guards preloaded", () => {
    expect(webServerEnv(childEnv, false)).toEqual({ NODE_ENV: "production", NODE_OPTIONS: guards, PORT: "3000" });
  });

  it("leaves NODE_ENV out for next dev", () => {
    expect(webServerEnv(childEnv, true)).toEqual({ NODE_OPTIONS: guards, PORT: "3000" });
    expect(webServerEnv({ PORT: "3000" }, true).NODE_OPTIONS).toBe(`${preload("forwarded-for.mjs")} ${preload("body-guard.mjs")}`);
  });
});

describe("webServerCommand", () => {
  it("runs next start alone for one web process, and the cluster primary for several", () => {
    const base = { dev: false, hostname: "127.0.0.1" };
    expect(webServerCommand("next-bin", { ...base, webProcesses: 1 }, 3000)).toEqual({ name: "next start", args: ["next-bin", "start", "-p", "3000", "-H", "127.0.0.1"], stopTimeoutMs: 10_000 });
    expect(webServerCommand("next-bin", { ...base, webProcesses: 3 }, 3000)).toEqual({
      name: "next start ×3",
      args: ["--import", "tsx", "scripts/serve/web-cluster.ts", "--processes", "3", "--stop-timeout", "10000", "--", "next-bin", "start", "-p", "3000", "-H", "127.0.0.1"],
      stopTimeoutMs: 15_000,
    });
    expect(webServerCommand("next-bin", { ...base, dev: true, webProcesses: 1 }, 3000).args).toEqual(["next-bin", "dev", "--webpack", "-p", "3000", "-H", "127.0.0.1"]);
  });
});
