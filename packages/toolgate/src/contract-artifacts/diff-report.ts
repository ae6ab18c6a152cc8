import { CHANGE_CLASSES } from './change-classes.ts';
import type { ContractDiff } from './contract-diff.ts';

/** The machine-readable report of `toolgate contract diff --json`. */
export function diffReportJson(diff: ContractDiff): string {
  const breaking = diff.changes.filter((c) => c.severity === 'breaking').length;
  const report = {
    ok: diff.ok,
    summary: {
      breaking,
      compatible: diff.changes.length - breaking,
      unaccepted_tools: diff.verdicts.filter((v) => !v.accepted).map((v) => v.tool),
    },
    tools: diff.verdicts.map((v) => ({
      tool: v.tool,
      old_version: v.oldVersion,
      new_version: v.newVersion,
      breaking: v.breaking,
      compatible: v.compatible,
      accepted: v.accepted,
      reason: v.reason,
    })),
    changes: diff.changes,
  };
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** The report for people: one block per changed tool, breaking changes first, then a verdict line. */
export function diffReportText(diff: ContractDiff): string {
  const lines: string[] = [];
  for (const verdict of diff.verdicts) {
    const own = diff.changes
      .filter((c) => c.tool === verdict.tool)
      .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'breaking' ? -1 : 1));
    if (own.length === 0) continue;
    const versions = `${verdict.oldVersion ?? '-'} -> ${verdict.newVersion ?? '-'}`;
    const state =
      verdict.breaking === 0 ? 'compatible' : verdict.accepted ? 'breaking, accepted' : 'BREAKING';
    lines.push(`${verdict.tool} ${versions}  [${state}: ${verdict.reason}]`);
    for (const change of own) {
      const mark = change.severity === 'breaking' ? '!' : '~';
      lines.push(`  ${mark} ${CHANGE_CLASSES[change.change].summary}: ${change.message}`);
    }
    lines.push('');
  }
  const breaking = diff.changes.filter((c) => c.severity === 'breaking').length;
  const refused = diff.verdicts.filter((v) => !v.accepted).map((v) => v.tool);
  if (diff.changes.length === 0) lines.push('No contract changes.');
  else lines.push(`${breaking} breaking, ${diff.changes.length - breaking} compatible change(s).`);
  if (refused.length > 0) {
    lines.push(
      `Not accepted: ${refused.join(', ')}. Bump the major version of each changed tool, ` +
        'keep the old contract alongside during migration, or make the change backward-compatible.',
    );
  }
  return `${lines.join('\n')}\n`;
}
