/**
 * Stops a child process when the process that started it is gone. A launcher killed with SIGKILL, or an
 * `npm start` terminated by a supervisor (npm does not pass SIGTERM on), would otherwise leave its
 * children running with nobody to stop them. `process.ppid` is read live, so a change means re-parenting.
 */
export function watchParent(expectedParentPid: number, onGone: () => void, intervalMs = 1_000): () => void {
  const timer = setInterval(() => {
    if (process.ppid !== expectedParentPid) {
      clearInterval(timer);
      onGone();
    }
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
