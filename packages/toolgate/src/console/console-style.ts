/**
 * The console's stylesheet (no framework): a type scale of five steps, one content column that fits
 * any width from a 390 px phone up, tables of fixed column widths whose long cells are cut with an
 * ellipsis (the full text is the cell's tooltip) and that stack as labelled cards on a narrow screen,
 * light and dark colours with text contrast of at least 4.5:1.
 */
export const CONSOLE_CSS = `:root{
  color-scheme:light dark;
  --bg:#f6f7f9;--surface:#fff;--text:#1b1f24;--muted:#4f5965;--line:#d5dae1;--accent:#1f5fbf;--accent-text:#fff;
  --danger:#b3261e;--ok:#1e6b34;--warn:#8a4b00;--review:#7a2b8f;--info:#1f5fbf;--badge:#e8ebef;
  --step--1:.8125rem;--step-0:.9375rem;--step-1:1.125rem;--step-2:1.375rem;--step-3:1.75rem;
  --mono:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;
  font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:100%;line-height:1.5;
}
@media (prefers-color-scheme:dark){:root{
  --bg:#111418;--surface:#1a1f25;--text:#e6e9ed;--muted:#a8b1bc;--line:#343b44;--accent:#7fb0ff;--accent-text:#0b1320;
  --danger:#ff8a80;--ok:#7ed69a;--warn:#ffbf66;--review:#e0a3f0;--info:#7fb0ff;--badge:#2a313a;
}}
*,*::before,*::after{box-sizing:border-box}
[hidden]{display:none!important}
html{background:var(--bg);color:var(--text)}
body{margin:0;font-size:var(--step-0);overflow-wrap:break-word}
a{color:var(--accent)}a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
h1,h2,h3{line-height:1.25;margin:0}
h2{font-size:var(--step-3);font-weight:650;margin:0 0 .25rem}
h3{font-size:var(--step-1);font-weight:650;margin:1.5rem 0 .5rem}
p{margin:.5rem 0}
code,.mono{font-family:var(--mono);font-size:.92em}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;z-index:2;background:var(--surface);padding:.5rem}
header{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.75rem clamp(1rem,3vw,2rem);background:var(--surface);border-bottom:1px solid var(--line)}
h1{font-size:var(--step-1);font-weight:700}
.brand{color:inherit;text-decoration:none}.brand span{font-weight:400;color:var(--muted)}
nav{display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center}
nav a{padding:.3rem .5rem;border-radius:.375rem;text-decoration:none;font-weight:550;color:var(--text)}
nav a:hover{background:var(--badge)}
nav a[aria-current=page]{background:var(--accent);color:var(--accent-text)}
nav button{margin-left:auto}
main{padding:1.25rem clamp(1rem,3vw,2rem) 3rem;max-width:90rem;margin:0 auto}
.lead{color:var(--muted);margin:0 0 1rem;max-width:60rem}
.muted{color:var(--muted)}
.empty{color:var(--muted);padding:1rem;border:1px dashed var(--line);border-radius:.5rem;background:var(--surface);max-width:60rem}
.hint{display:block;color:var(--muted);font-size:var(--step--1)}
.error{color:var(--danger);font-weight:550}
.error:empty,#status:empty{display:none}
#status{padding:.5rem .75rem;border-left:4px solid var(--accent);background:var(--surface);margin:0 0 1rem}
.panel{background:var(--surface);border:1px solid var(--line);border-radius:.5rem;padding:1rem 1.25rem;margin:1rem 0}
.panel>h3:first-child{margin-top:0}
.sign-in{max-width:40rem}.sign-in form button{margin-top:1rem}
label{display:block;margin-top:.75rem;font-weight:550}
label.choice{font-weight:400;display:flex;gap:.5rem;align-items:baseline}
input,select,textarea{font:inherit;color:inherit;background:var(--surface);border:1px solid var(--muted);border-radius:.375rem;padding:.4rem .55rem;width:100%;max-width:40rem}
input[type=radio],input[type=checkbox]{width:auto;accent-color:var(--accent)}
fieldset{border:1px solid var(--line);border-radius:.5rem;margin:.75rem 0;padding:.5rem 1rem 1rem}legend{font-weight:650}
button{font:inherit;padding:.4rem .9rem;border-radius:.375rem;border:1px solid var(--muted);background:var(--surface);color:var(--text);cursor:pointer}
button:hover{border-color:var(--accent)}
button.primary{background:var(--accent);border-color:var(--accent);color:var(--accent-text);font-weight:600}
button.danger{background:var(--danger);border-color:var(--danger);color:var(--surface)}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:1rem 0}
.filters{display:flex;flex-wrap:wrap;gap:.75rem 1rem;align-items:flex-start;margin:0 0 1rem;padding:.75rem 1rem;background:var(--surface);border:1px solid var(--line);border-radius:.5rem}
.filters .field{flex:1 1 12rem;max-width:18rem}.filters label{margin-top:0}
.filters .field:has(button){flex:0 0 auto;align-self:center}
.filters .error{flex-basis:100%;margin:0}
.form-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,13.5rem),1fr));gap:0 1.25rem;max-width:64rem}
.form-grid .field{min-width:0}
.badge{display:inline-block;padding:0 .45rem;border-radius:.375rem;background:var(--badge);font-size:var(--step--1);font-weight:600;white-space:normal;max-width:100%;vertical-align:baseline}
.badge-completed,.badge-active{color:var(--ok)}.badge-failed,.badge-rejected,.badge-revoked{color:var(--danger)}
.badge-needs_review,.badge-outcome_unknown{color:var(--review)}.badge-awaiting_confirmation,.badge-in_progress,.badge-scheduled{color:var(--info)}
.badge-requires_confirmation{color:var(--warn)}
.table{margin:0 0 1rem;background:var(--surface);border:1px solid var(--line);border-radius:.5rem}
table{border-collapse:collapse;width:100%;table-layout:fixed;font-size:var(--step--1)}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid var(--line);vertical-align:top}
tbody tr:last-child td{border-bottom:0}
th{font-weight:650;color:var(--muted);background:var(--bg)}
td{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
td.wrap{white-space:normal}
td a.mono{font-size:.95em}
col.w-id{width:14.75rem}col.w-tool{width:10rem}col.w-who{width:8.5rem}col.w-state{width:9.25rem}col.w-time{width:8.75rem}col.w-stamp{width:10.25rem}col.w-num{width:6.5rem}col.w-action{width:8.25rem}
td button{padding:.15rem .6rem;font-size:var(--step--1)}
.fields{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.25rem 1rem;margin:.25rem 0}
.fields dt{font-weight:600;color:var(--muted)}.fields dd{margin:0;overflow-wrap:anywhere}
.fields.compact{gap:0 .75rem;margin:0}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,24rem),1fr));gap:0 1rem}
.operation-title{font-size:var(--step-3);display:flex;flex-wrap:wrap;gap:0 .6rem;align-items:baseline}
.operation-title .kicker{font-family:inherit;font-weight:500;color:var(--muted);font-size:var(--step-1)}
.operation-title .mono{font-size:var(--step-2);overflow-wrap:anywhere;min-width:0}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,18rem),1fr));gap:1rem;margin:1rem 0 2rem}
.card{background:var(--surface);border:1px solid var(--line);border-radius:.5rem;padding:1rem 1.25rem;min-width:0}
.card h3{margin:0;font-size:var(--step-0);color:var(--muted)}
.card .count{font-size:2.5rem;font-weight:700;line-height:1.1;margin:.25rem 0 .5rem}
.card .empty{padding:.5rem .75rem}
.items{list-style:none;padding:0;margin:0;font-size:var(--step--1)}
.items li{padding:.3rem 0;border-top:1px solid var(--line);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.question{border-left:4px solid var(--accent);padding:.25rem 1rem;margin:0 0 1rem;max-width:48rem}.question>p{font-weight:600;font-size:var(--step-1)}
.activity{margin-top:2rem}.activity h2{font-size:var(--step-2)}
.charts{display:flex;flex-wrap:wrap;gap:1.5rem}.charts figure{margin:0;min-width:0;max-width:100%}.charts figcaption{font-weight:600}.chart{max-width:100%;height:auto}
.legend{display:flex;flex-wrap:wrap;gap:.3rem 1rem;list-style:none;padding:0;margin:.3rem 0;font-size:var(--step--1)}
dialog{max-width:min(40rem,calc(100vw - 2rem));border:1px solid var(--line);border-radius:.5rem;background:var(--surface);color:var(--text);padding:1.25rem}
dialog::backdrop{background:#0008}
dialog h2{font-size:var(--step-2)}
@media (max-width:48rem){
  header{gap:.5rem}
  nav{gap:.25rem}
  h2{font-size:var(--step-2)}
  .table{background:none;border:0}
  .table table,.table tbody,.table tr,.table td{display:block;width:auto}
  .table colgroup,.table thead{display:none}
  .table tr{background:var(--surface);border:1px solid var(--line);border-radius:.5rem;margin:0 0 .75rem;padding:.25rem 0}
  .table td{display:grid;grid-template-columns:7.5rem minmax(0,1fr);gap:.75rem;white-space:normal;overflow-wrap:anywhere;border-bottom:0;padding:.3rem .75rem}
  .table td::before{content:attr(data-label);font-weight:600;color:var(--muted)}
  .table td>*{justify-self:start;max-width:100%}
  .table td:has(>dl){grid-template-columns:minmax(0,1fr);gap:.15rem}
  .table td:empty{display:none}
  .fields{display:block}.fields dt{margin-top:.4rem}.fields.compact dt{margin-top:.2rem}
  .operation-title .mono{font-size:var(--step-1)}
  .panel{padding:.75rem 1rem}
}
`;
