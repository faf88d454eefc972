/**
 * Preloaded into the processes `scripts/serve.ts` supervises (web server and workers, through
 * NODE_OPTIONS): when the supervisor named by `COREFBOARD_SUPERVISOR_PID` is gone (killed
 * with SIGKILL, say, so that it could not stop its children), this process sends itself
 * SIGTERM and shuts down as it would when serve stops it. The children run in their own
 * process groups (serve kills a dead child's leftovers by group), so without this they would
 * outlive a killed serve and keep its port and database busy.
 *
 * Checks once a second with signal 0 (no signal is sent); the timer never keeps the process alive.
 */
const supervisor = Number(process.env.COREFBOARD_SUPERVISOR_PID);

if (Number.isInteger(supervisor) && supervisor > 1 && supervisor !== process.pid) {
  const timer = setInterval(() => {
    try {
      process.kill(supervisor, 0);
    } catch (error) {
      if (error && error.code === "EPERM") return; // alive, owned by someone else
      clearInterval(timer);
      console.error(`[exit-with-supervisor] serve (pid ${supervisor}) is gone; stopping`);
      process.kill(process.pid, "SIGTERM");
    }
  }, 1000);
  timer.unref();
}
