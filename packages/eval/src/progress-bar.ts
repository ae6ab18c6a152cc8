import type { TrialResult } from './trial-runner.ts';

/**
 * Progress on stderr: a redrawn bar on a terminal, one line per failed trial plus a line every tenth
 * trial otherwise (CI logs stay short).
 */
export function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  let failures = 0;
  return (done: number, total: number, result: TrialResult) => {
    if (!result.passed) failures += 1;
    const label = `${result.scenario}${result.label !== result.agent ? ` [${result.label}]` : ''}`;
    if (stream.isTTY) {
      const width = 30;
      const filled = Math.round((done / total) * width);
      stream.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total} failed ${failures}  ${label.slice(0, 50).padEnd(50)}`,
      );
      if (done === total) stream.write('\n');
      return;
    }
    if (!result.passed) stream.write(`FAIL ${label}: ${result.reasons.join('; ')}\n`);
    if (done % 10 === 0 || done === total) stream.write(`${done}/${total} trials, ${failures} failed\n`);
  };
}
