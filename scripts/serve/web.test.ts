import { describe, expect, it } from "vitest";
import { preload } from "./environment";
import { webServerEnv } from "./web";

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
