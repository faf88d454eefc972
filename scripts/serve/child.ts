/**
 * One child process of serve (scripts/serve.ts): started in its own process group with its
 * output turned into log lines, signalled as a group, and stopped with SIGTERM then SIGKILL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { constants as osConstants } from "node:os";
import type { Writable } from "node:stream";
import { log, pipeLogLines } from "./log";
import { ROOT } from "./root";

/** Environment variables for a child process. */
export type ChildEnv = Record<string, string | undefined>;

/** A running child process with a label for messages. */
export interface Child {
  name: string;
  process: ChildProcess;
  /** resolves once it has exited: with its code, or 128 + the signal's number */
  exited: Promise<number>;
  startedAt: number;
  /** ms between SIGTERM and SIGKILL on shutdown */
  stopTimeoutMs: number;
}

/** How a child exited, for messages: "code 1" or "signal SIGKILL". */
export function exitDescription(proc: ChildProcess): string {
  return proc.signalCode ? `signal ${proc.signalCode}` : `code ${proc.exitCode}`;
}

/** Signals the child's whole process group (it leads one: spawned detached), else the child alone. */
export function signalGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  if (proc.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
  try {
    process.kill(-proc.pid, signal);
  } catch {
    try {
      proc.kill(signal);
    } catch {
      // already gone
    }
  }
}

/**
 * SIGKILLs whatever is left in the process group that the exited child `proc` led. Linux
 * does not reuse a pid while a process group of that id has members, so this reaches only
 * the child's own descendants.
 */
function killGroupRemains(proc: ChildProcess): void {
  if (proc.pid === undefined) return;
  try {
    process.kill(-proc.pid, "SIGKILL");
  } catch {
    // ESRCH: nothing left
  }
}

/** Where a child's stdout and stderr go, as log lines. */
export interface ChildOutput {
  stdout: Writable;
  stderr: Writable;
}

/**
 * Starts `command args` with `env` in the root folder, in its own process group (spawned
 * detached), and logs its pid (`<name> started (pid <pid><note>)`). Its stdout and stderr go
 * to `output` as plain-text log lines ({@link pipeLogLines}); once it has exited, whatever it
 * left in its process group is SIGKILLed ({@link killGroupRemains}). A child that cannot start
 * is logged and counts as exited with code 1.
 *
 * @param stopTimeoutMs time between SIGTERM and SIGKILL on shutdown ({@link stopChild})
 * @param note appended to the "started (pid …)" line
 */
export function startChild(name: string, command: string, args: string[], env: ChildEnv, stopTimeoutMs: number, note: string, output: ChildOutput): Child {
  const proc = spawn(command, args, { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ["inherit", "pipe", "pipe"], detached: true });
  pipeLogLines(proc.stdout!, output.stdout);
  pipeLogLines(proc.stderr!, output.stderr);
  const exited = new Promise<number>((resolve) => {
    proc.once("exit", (code, signal) => resolve(code ?? 128 + (signal ? (osConstants.signals[signal] ?? 0) : 0)));
    proc.once("error", (error) => {
      log.error(`${name} could not start: ${error.message}`);
      resolve(1);
    });
  });
  const child: Child = { name, process: proc, exited, startedAt: Date.now(), stopTimeoutMs };
  // What it leaves behind in its process group goes too: when `next dev` dies, its
  // server process would otherwise keep the port (and a restart would fail).
  void exited.then(() => killGroupRemains(proc));
  if (proc.pid !== undefined) log.info(`${name} started (pid ${proc.pid}${note})`);
  return child;
}

/**
 * Stops a child: SIGTERM to its process group, SIGKILL (logged) if it is still running
 * `stopTimeoutMs` later; resolves once it has exited.
 */
export async function stopChild(child: Child): Promise<void> {
  signalGroup(child.process, "SIGTERM");
  const timer = setTimeout(() => {
    log.error(`${child.name} (pid ${child.process.pid}) still running ${child.stopTimeoutMs / 1000} s after SIGTERM; sending SIGKILL`);
    signalGroup(child.process, "SIGKILL");
  }, child.stopTimeoutMs);
  await child.exited;
  clearTimeout(timer);
}
