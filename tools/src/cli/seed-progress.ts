import cliProgress from 'cli-progress';

/**
 * Seeding progress for `seedDemoData`: a bar started by the first report (a refusal draws none) and stopped by each
 * message; without a terminal, `lines` prints a line a tenth instead (CI, a log file).
 */
export function seedProgress(print: (line: string) => void, options: { indent?: string; lines?: boolean } = {}) {
  const indent = options.indent ?? '';
  const bar = new cliProgress.SingleBar(
    { format: `${indent}customers [{bar}] {percentage}% {value}/{total} eta {eta_formatted}` },
    cliProgress.Presets.shades_classic,
  );
  const asLines = options.lines === true && !process.stdout.isTTY;
  let started = false;
  let printed = 0;
  return {
    onProgress(done: number, total: number) {
      if (!asLines) {
        if (!started) bar.start(total, 0);
        started = true;
        bar.update(done);
      } else if (done - printed >= total / 10) {
        printed = done;
        print(`${indent}${done.toLocaleString('en')} / ${total.toLocaleString('en')} customers`);
      }
    },
    log(message: string) {
      bar.stop();
      print(`${indent}${message}`);
    },
    stop: () => bar.stop(),
  };
}
