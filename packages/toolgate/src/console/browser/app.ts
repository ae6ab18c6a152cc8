/**
 * The console's entry module (no framework): hash routes to one view each (views/), the sign-in and
 * sign-out, and the resolve dialog's wiring. Compiled to dist/console/browser/ with the rest of the
 * package and served under /console/ by file name (app.js, views/home.js, ...).
 */
import { $, say } from './dom.ts';
import { SignedOut, signOut, TOKEN_KEY, token } from './operator-api.ts';
import { wireResolveDialog } from './resolve-dialog.ts';
import { showAudit } from './views/audit.ts';
import { showConfirmations } from './views/confirmations.ts';
import { showExceptions } from './views/exceptions.ts';
import { showHome } from './views/home.ts';
import { showOperation } from './views/operation.ts';
import { showOperations } from './views/operations.ts';
import { showQueue } from './views/queue.ts';
import { showTools } from './views/tools.ts';

/** The views by their hash, and the one the nav marks as current for each. */
const VIEWS: Readonly<Record<string, (view: HTMLElement, rest: string) => Promise<void>>> = {
  home: (view) => showHome(view),
  queue: (view) => showQueue(view),
  confirmations: (view) => showConfirmations(view),
  operations: (view, rest) => showOperations(view, new URLSearchParams(rest)),
  operation: (view, rest) => showOperation(view, rest),
  audit: (view, rest) => showAudit(view, new URLSearchParams(rest)),
  tools: (view) => showTools(view),
  exceptions: (view) => showExceptions(view),
};
const NAV_OF: Readonly<Record<string, string>> = { operation: 'operations' };

/** Only the newest route draws: a slow answer for a view already left is dropped. */
let drawing = 0;

async function route() {
  const signedIn = Boolean(token());
  $('sign-in').hidden = signedIn;
  $('nav').hidden = !signedIn;
  const view = $('view');
  view.hidden = !signedIn;
  view.replaceChildren();
  if (!signedIn) {
    document.title = 'Sign in · toolgate operator console';
    return;
  }
  const [asked = '', rest = ''] = location.hash.slice(1).split(/[/?](.*)/s);
  const page = asked in VIEWS ? asked : 'home';
  for (const link of $('nav').querySelectorAll('a')) {
    if (link.getAttribute('href') === `#${NAV_OF[page] ?? page}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  const mine = ++drawing;
  const draft = document.createElement('div');
  draft.className = 'view-body';
  try {
    await VIEWS[page]!(draft, rest);
  } catch (error) {
    // Whatever the page threw: a failed fetch, an unreadable answer, or the 401 already shown.
    if (!(error instanceof SignedOut)) say(`Could not load: ${(error as Error).message}`);
  }
  if (mine !== drawing || !token()) return;
  view.replaceChildren(...draft.childNodes);
  const title = view.querySelector('h2')?.textContent;
  document.title = `${title ? `${title} · ` : ''}toolgate operator console`;
}

wireResolveDialog();
$('sign-in-form').addEventListener('submit', (e) => {
  e.preventDefault();
  sessionStorage.setItem(TOKEN_KEY, $<HTMLInputElement>('token').value.trim());
  $<HTMLInputElement>('token').value = '';
  say('');
  route();
});
$('sign-out').addEventListener('click', () => signOut());
window.addEventListener('toolgate:signed-out', (e) => {
  say((e as CustomEvent<string>).detail);
  route();
});
window.addEventListener('toolgate:reload', () => route());
window.addEventListener('hashchange', () => {
  say('');
  route();
});
route();
