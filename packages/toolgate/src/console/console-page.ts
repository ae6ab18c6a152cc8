/**
 * The console's HTML shell. It holds no data: everything it shows is fetched from /operator/v1 with
 * the operator's bearer token, which the page keeps in sessionStorage and sends only as a header.
 */
export const CONSOLE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>toolgate operator console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/console/app.css">
<script type="module" src="/console/app.js"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
  <h1><a href="#home" class="brand">toolgate <span>operator console</span></a></h1>
  <nav aria-label="Sections" hidden id="nav">
    <a href="#home">Waiting</a>
    <a href="#queue">Review queue</a>
    <a href="#confirmations">Confirmations</a>
    <a href="#operations">Operations</a>
    <a href="#audit">Audit</a>
    <a href="#exceptions">Exceptions</a>
    <a href="#tools">Tools</a>
    <button type="button" id="sign-out">Sign out</button>
  </nav>
</header>
<main id="main" tabindex="-1">
  <section id="sign-in" class="panel sign-in" aria-labelledby="sign-in-title">
    <h2 id="sign-in-title">Sign in</h2>
    <p>Paste an operator bearer token (scope <code>operations:review</code>, or <code>operations:read</code>
    as an operator; <code>operations:confirm</code> to confirm calls waiting for an approver; the scope a module declares for granting its exceptions, e.g. <code>refunds:approve</code>). It stays in this tab's session storage and is sent only in the Authorization header.</p>
    <form id="sign-in-form">
      <label for="token">Operator token</label>
      <input id="token" name="token" type="password" required autocomplete="off" spellcheck="false">
      <button type="submit" class="primary">Sign in</button>
    </form>
  </section>
  <p id="status" role="status"></p>
  <section id="view" hidden aria-live="polite"></section>
</main>
<dialog id="resolve-dialog" aria-labelledby="resolve-title">
  <form id="resolve-form" method="dialog">
    <h2 id="resolve-title">Resolve operation</h2>
    <p id="resolve-summary"></p>
    <fieldset id="resolve-edit">
      <legend>What happened in the owning system?</legend>
      <label class="choice"><input type="radio" name="outcome" value="completed" required> It happened (completed)</label>
      <label class="choice"><input type="radio" name="outcome" value="rejected"> It did not happen (rejected)</label>
      <label for="resolve-note">Note (required: what you checked)</label>
      <textarea id="resolve-note" name="note" rows="3" required minlength="3" maxlength="500"></textarea>
      <label for="resolve-reference">Reference in the owning system (optional)</label>
      <input id="resolve-reference" name="reference" maxlength="200" autocomplete="off">
    </fieldset>
    <p id="resolve-confirm-text" hidden></p>
    <p id="resolve-error" class="error" role="alert"></p>
    <div class="actions">
      <button type="button" id="resolve-cancel">Cancel</button>
      <button type="button" id="resolve-review">Review decision</button>
      <button type="button" id="resolve-confirm" class="primary" hidden>Confirm resolution</button>
    </div>
  </form>
</dialog>
</body>
</html>
`;
