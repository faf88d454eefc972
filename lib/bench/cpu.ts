/**
 * CPU time of a process group and of the whole machine, read from Linux's /proc, for
 * `npm run bench:web`'s server CPU and machine busy columns (issue 26 §5): how much of the
 * machine the web processes took during a load, and how much of it was busy at all, so that a
 * throughput ratio of N processes against one can be judged against what the machine had left.
 * Elsewhere (no /proc) every reader gives null and the columns say "-".
 */
import { readdirSync, readFileSync } from "node:fs";

/** Linux's clock ticks per second (`getconf CLK_TCK`), the unit of /proc's CPU times: 100 on every architecture Node runs on. */
export const CLOCK_TICKS_PER_SECOND = 100;

/**
 * A process's group and CPU time from the text of `/proc/<pid>/stat`: the fields after the
 * command name (which is in parentheses and may itself hold spaces and parentheses, so the text
 * is split after the last `)`), `pgrp` the 5th field and user plus system time the 14th and 15th
 * (proc(5)).
 *
 * @returns `cpuTicks` in clock ticks ({@link CLOCK_TICKS_PER_SECOND})
 * @throws Error for a text that is not such a line
 */
export function parseProcessStat(text: string): { pgrp: number; cpuTicks: number } {
  const close = text.lastIndexOf(")");
  const fields = text.slice(close + 1).trim().split(/\s+/);
  // fields[0] is the state (3rd field of the line): pgrp is the 5th, utime and stime the 14th and 15th.
  const [pgrp, utime, stime] = [fields[2], fields[11], fields[12]].map(Number);
  if (close < 0 || ![pgrp, utime, stime].every((n) => Number.isInteger(n))) throw new Error(`not a /proc/<pid>/stat line: ${text.slice(0, 120)}`);
  return { pgrp: pgrp!, cpuTicks: utime! + stime! };
}

/**
 * The CPU time (user and system) so far of the live processes of process group `pgrp`, in
 * seconds; null without /proc. A process that ends between two readings takes its time with it,
 * so measure a group whose processes live throughout (a web server and its cluster workers).
 */
export function groupCpuSeconds(pgrp: number): number | null {
  let names: string[];
  try {
    names = readdirSync("/proc");
  } catch {
    return null;
  }
  let ticks = 0;
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    let text: string;
    try {
      text = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // ended meanwhile
    }
    const stat = parseProcessStat(text);
    if (stat.pgrp === pgrp) ticks += stat.cpuTicks;
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}

/**
 * The machine's busy and total CPU time from the text of `/proc/stat` (its first line, all
 * cores): busy is user, nice, system, irq, softirq and steal; total adds idle and iowait
 * (proc(5); guest time is already counted in user).
 *
 * @returns both in clock ticks, summed over the cores
 * @throws Error when the text has no `cpu ` line
 */
export function parseMachineStat(text: string): { busyTicks: number; totalTicks: number } {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) throw new Error("no cpu line in /proc/stat");
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.trim().split(/\s+/).slice(1, 9).map((n) => Number(n) || 0);
  const busyTicks = user! + nice! + system! + irq! + softirq! + steal!;
  return { busyTicks, totalTicks: busyTicks + idle! + iowait! };
}

/** The machine's busy and total CPU time so far ({@link parseMachineStat}), or null without /proc. */
export function machineCpuTicks(): { busyTicks: number; totalTicks: number } | null {
  try {
    return parseMachineStat(readFileSync("/proc/stat", "utf8"));
  } catch {
    return null;
  }
}
