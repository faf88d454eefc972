import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

describe("links", () => {
  it("every page and component links through app/_components/link.tsx (no prefetching), not next/link", () => {
    const direct: string[] = [];
    for (const entry of readdirSync("app", { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
      const file = path.join(entry.parentPath, entry.name);
      if (file === path.join("app", "_components", "link.tsx")) continue;
      if (/from\s+["']next\/link["']/.test(readFileSync(file, "utf8"))) direct.push(file);
    }
    expect(direct).toEqual([]);
  });
});
