/**
 * Progress lines for long operations: one when a step starts, at most one a second while it runs, one
 * when it ends with its count and time.
 */
export interface Progress {
  step(label: string, total?: number): Step;
  line(text: string): void;
}

export interface Step {
  add(n: number): void;
  done(extra?: string): number;
}

const format = (n: number): string => n.toLocaleString('en-US');

export function createProgress(write: (line: string) => void, intervalMs = 1_000): Progress {
  return {
    line: write,
    step(label, total) {
      const started = Date.now();
      let count = 0;
      let lastReport = started;
      return {
        add(n) {
          count += n;
          const now = Date.now();
          if (now - lastReport >= intervalMs) {
            lastReport = now;
            write(`  ${label}: ${format(count)}${total === undefined ? '' : ` / ${format(total)}`} …`);
          }
        },
        done(extra) {
          write(`  ${label}: ${format(count)} in ${Date.now() - started} ms${extra ? ` ${extra}` : ''}`);
          return count;
        },
      };
    },
  };
}
