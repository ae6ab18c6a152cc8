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
  <h1>toolgate <span>operator console</span></h1>
  <nav aria-label="Sections" hidden id="nav">
    <a href="#queue">Review queue</a>
    <a href="#confirmations">Confirmations</a>
    <a href="#operations">Operations</a>
    <a href="#tools">Tools</a>
    <a href="#exceptions">Exceptions</a>
    <button type="button" id="sign-out">Sign out</button>
  </nav>
</header>
<main id="main" tabindex="-1">
  <section id="sign-in" aria-labelledby="sign-in-title">
    <h2 id="sign-in-title">Sign in</h2>
    <p>Paste an operator bearer token (scope <code>operations:review</code>, or <code>operations:read</code>
    as an operator; <code>operations:confirm</code> to confirm calls waiting for an approver; the scope a module declares for granting its exceptions, e.g. <code>refunds:approve</code>). It stays in this tab's session storage and is sent only in the Authorization header.</p>
    <form id="sign-in-form">
      <label for="token">Operator token</label>
      <input id="token" name="token" type="password" required autocomplete="off" spellcheck="false">
      <button type="submit">Sign in</button>
    </form>
  </section>
  <section id="view" hidden aria-live="polite"></section>
  <p id="status" role="status"></p>
</main>
<dialog id="resolve-dialog" aria-labelledby="resolve-title">
  <form id="resolve-form" method="dialog">
    <h2 id="resolve-title">Resolve operation</h2>
    <p id="resolve-summary"></p>
    <fieldset id="resolve-edit">
      <legend>What happened in the owning system?</legend>
      <label><input type="radio" name="outcome" value="completed" required> It happened (completed)</label>
      <label><input type="radio" name="outcome" value="rejected"> It did not happen (rejected)</label>
      <label for="resolve-note">Note (required: what you checked)</label>
      <textarea id="resolve-note" name="note" rows="3" required minlength="3" maxlength="500"></textarea>
      <label for="resolve-reference">Reference in the owning system (optional)</label>
      <input id="resolve-reference" name="reference" maxlength="200" autocomplete="off">
    </fieldset>
    <p id="resolve-confirm-text" hidden></p>
    <p id="resolve-error" role="alert"></p>
    <div class="actions">
      <button type="button" id="resolve-cancel">Cancel</button>
      <button type="button" id="resolve-review">Review decision</button>
      <button type="button" id="resolve-confirm" hidden>Confirm resolution</button>
    </div>
  </form>
</dialog>
</body>
</html>
`;

export const CONSOLE_CSS = `:root{color-scheme:light dark;font-family:system-ui,sans-serif;line-height:1.4}
body{margin:0;background:Canvas;color:CanvasText}
header{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.5rem 1rem;border-bottom:1px solid #8884}
h1{font-size:1.2rem;margin:0}h1 span{font-weight:400;opacity:.7}
nav{display:flex;gap:1rem;align-items:center}nav a{font-weight:600}
main{padding:1rem;max-width:80rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid #8883;vertical-align:top}
code,.mono{font-family:ui-monospace,monospace;font-size:.85rem}
textarea,input,select{font:inherit;width:100%;max-width:40rem;box-sizing:border-box}
input[type=radio]{width:auto;margin-right:.5rem}
label{display:block;margin-top:.5rem}fieldset{border:1px solid #8885}
button{font:inherit;padding:.3rem .8rem;cursor:pointer}
.filters{display:flex;flex-wrap:wrap;gap:1rem;align-items:end}.filters label{margin:0}
.actions{display:flex;gap:.5rem;margin-top:1rem}
.badge{display:inline-block;padding:0 .4rem;border-radius:.3rem;background:#8882}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem}
#status:empty,#resolve-error:empty,#confirm-error:empty{display:none}#resolve-error,#confirm-error{color:#c00}
.grant-form [role=alert]:empty{display:none}.grant-form [role=alert]{color:#c00}
.question{border:1px solid #8885;padding:.5rem 1rem;max-width:40rem}.question p{font-weight:600}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}.charts figure{margin:0}.charts figcaption{font-weight:600}.chart{max-width:100%;height:auto}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1rem;list-style:none;padding:0;margin:.3rem 0;font-size:.85rem}
dialog{max-width:40rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem}dt{font-weight:600}
`;
