import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { groupCpuSeconds, machineCpuTicks, parseMachineStat, parseProcessStat } from "./cpu";

describe("parseProcessStat", () => {
  it("reads the group and user plus system ticks after the last parenthesis, whatever the command name holds", () => {
    const line = "18205 (next-server (v1) 6.0) S 18190 18205 18190 0 -1 4194560 52043 0 0 0 2411 388 0 0 20 0 11 0 6112 1331568640 60473";
    expect(parseProcessStat(line)).toEqual({ pgrp: 18205, cpuTicks: 2411 + 388 });
  });

  it("refuses a text that is not a stat line", () => {
    expect(() => parseProcessStat("no parentheses here")).toThrow(/not a \/proc\/<pid>\/stat line/);
  });
});

describe("parseMachineStat", () => {
  it("counts user, nice, system, irq, softirq and steal as busy, and adds idle and iowait for the total", () => {
    const text = "cpu  100 5 50 800 20 3 2 10 7 0\ncpu0 50 2 25 400 10 1 1 5 3 0\nintr 1 2 3\n";
    expect(parseMachineStat(text)).toEqual({ busyTicks: 100 + 5 + 50 + 3 + 2 + 10, totalTicks: 170 + 800 + 20 });
  });

  it("refuses a text without the all-cores line", () => {
    expect(() => parseMachineStat("intr 1 2 3\n")).toThrow(/no cpu line/);
  });
});

describe.runIf(existsSync("/proc/stat"))("on this Linux machine", () => {
  it("groupCpuSeconds sees a busy child's group use CPU, and machineCpuTicks count it as busy", async () => {
    // A detached child leads its own process group, as bench:web's web server does.
    const child = spawn(process.execPath, ["-e", "const end = Date.now() + 600; while (Date.now() < end);"], { detached: true, stdio: "ignore" });
    const before = machineCpuTicks()!;
    const pid = child.pid!;
    let seen = 0;
    while (child.exitCode === null) {
      seen = Math.max(seen, groupCpuSeconds(pid) ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const after = machineCpuTicks()!;
    expect(seen).toBeGreaterThan(0.1);
    expect(after.busyTicks - before.busyTicks).toBeGreaterThanOrEqual(Math.floor(seen * 100 * 0.5));
    expect(after.totalTicks).toBeGreaterThan(before.totalTicks);
    // The group is gone with its process.
    expect(groupCpuSeconds(pid)).toBe(0);
  });
});
