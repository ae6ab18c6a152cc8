import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// Two levels below the package root both in src/ and in dist/.
const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TEMPLATE = join(PACKAGE_ROOT, 'templates/init');

/**
 * Template files whose real names would change how the package itself is read: a package.json would
 * make the templates a package of their own, and npm leaves every .gitignore out of a packed tarball.
 */
const RENAMED: Readonly<Record<string, string>> = {
  '_package.json': 'package.json',
  _gitignore: '.gitignore',
};

/** A package name npm accepts, from the folder's name. */
function packageNameFor(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name.length > 0 ? name.slice(0, 214) : 'my-tools';
}

/**
 * Copies the project template into `dir` and answers the exit code. Refuses (2, nothing written) a
 * path that is a file or a folder with anything in it, so that no file of the user's is overwritten.
 */
export function runInitCommand(dir: string): number {
  const target = resolve(dir);
  if (existsSync(target)) {
    if (!statSync(target).isDirectory()) return refuse(`${target} is a file, not a folder.`);
    const entries = readdirSync(target);
    if (entries.length > 0)
      return refuse(
        `${target} is not empty (${entries.slice(0, 3).join(', ')}${entries.length > 3 ? ', ...' : ''}); ` +
          'name a new folder, as in: npx -y toolgate init my-tools.',
      );
  }
  mkdirSync(target, { recursive: true });
  cpSync(TEMPLATE, target, { recursive: true });
  for (const [from, to] of Object.entries(RENAMED)) renameSync(join(target, from), join(target, to));

  const manifestFile = join(target, 'package.json');
  const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
    name: string;
    dependencies: Record<string, string>;
  };
  manifest.name = packageNameFor(target);
  manifest.dependencies.toolgate = `^${version}`;
  writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);

  const cd = relative(process.cwd(), target);
  process.stdout.write(
    `Wrote a toolgate project to ${target}. Next:\n` +
      (cd ? `  cd ${cd}\n` : '') +
      '  npm install          # before toolgate is on the registry: npm install PATH/TO/toolgate-VERSION.tgz\n' +
      '  npm test\n' +
      '  npm run service   # the tasks service, in a terminal of its own\n' +
      '  npm start         # the gateway, on http://127.0.0.1:8787/mcp\n' +
      'README.md says the rest.\n',
  );
  return 0;
}

function refuse(reason: string): number {
  process.stderr.write(`toolgate init: ${reason} Nothing was written.\n`);
  return 2;
}
