import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where a module's syntax error sits: above the stack Node puts `PATH:LINE` (or a file URL), the source
 * and a caret, then an empty line.
 */
const SYNTAX_FRAME = /^((?:file:\/\/)?\/[^\n]*?):(\d+)\n((?:.*\n)*?)\n/;
/** A stack frame in a file: the project's own are those in the config's folder, outside node_modules. */
const PROJECT_FRAME = /\((file:\/\/\/[^)]*?):(\d+):(\d+)\)|at (file:\/\/\/\S*?):(\d+):(\d+)$/gm;

/**
 * What stopped a config module from loading, said as Node says it: the file (relative to the config's
 * folder when inside it), the line, the error, and for a syntax error the source line with its caret.
 * A module throwing while it is evaluated names the first frame in the project's own files (those in
 * the config's folder, outside node_modules).
 */
export function loadFailure(error: unknown, folder: string): string {
  if (!(error instanceof Error)) return String(error);
  const stack = error.stack ?? '';
  const kind = error.name === 'Error' ? '' : `${error.name}: `;
  const syntax = SYNTAX_FRAME.exec(stack);
  if (syntax) {
    const frame = syntax[3]!
      .trimEnd()
      .split('\n')
      .map((line) => `    ${line}`);
    return [`${where(syntax[1]!, folder)}:${syntax[2]}: ${kind}${error.message}`, ...frame].join('\n');
  }
  for (const match of stack.matchAll(PROJECT_FRAME)) {
    const url = match[1] ?? match[4]!;
    if (url.includes('/node_modules/') || where(url, folder).startsWith(sep)) continue;
    return `${where(url, folder)}:${match[2] ?? match[5]}:${match[3] ?? match[6]}: ${kind}${error.message}`;
  }
  return `${kind}${error.message}`;
}

function where(location: string, folder: string): string {
  const path = location.startsWith('file:') ? fileURLToPath(location) : location;
  const inside = relative(folder, path);
  return inside.startsWith(`..${sep}`) || inside === '..' ? path : inside;
}
