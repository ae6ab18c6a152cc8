import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | null = null;

/**
 * CPU time (user + system, µs) a process has used so far, read from /proc/<pid>/stat, so a server's
 * cost per call is measured from outside without the server reporting anything. Resolution is one
 * clock tick (10 ms on Linux), negligible over a phase of seconds.
 */
export function processCpuMicros(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces; the fields after its closing parenthesis do not.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / ticksPerSecond;
}
