/** The one stylesheet of the pages: served from /assets/plaza.css so the CSP needs no inline styles. */
export const PLAZA_CSS = `
:root { color-scheme: light dark; --fg: #14171a; --bg: #ffffff; --muted: #536471; --accent: #0b5cad; --danger: #b3261e; --line: #cfd9de; --panel: #f7f9f9; }
@media (prefers-color-scheme: dark) { :root { --fg: #e7e9ea; --bg: #15202b; --muted: #a3b1bd; --accent: #7cc0ff; --danger: #ff8a80; --line: #38444d; --panel: #1e2732; } }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
a { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem; }
header.site { display: flex; justify-content: space-between; align-items: center; gap: 1rem; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
header.site .brand { margin: 0; font-weight: 700; font-size: 1.25rem; }
header.site nav { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
main { max-width: 44rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.75rem; line-height: 1.2; }
h2 { font-size: 1.25rem; margin-top: 2rem; }
.field { margin: 1rem 0; }
.field label { display: block; font-weight: 600; margin-bottom: .25rem; }
.field input, select, textarea { width: 100%; padding: .5rem .6rem; font: inherit; color: inherit; background: var(--bg); border: 2px solid var(--line); border-radius: 4px; }
textarea { min-height: 6rem; }
.field.invalid input { border-color: var(--danger); }
.hint { color: var(--muted); margin: 0 0 .25rem; }
.error { color: var(--danger); font-weight: 600; margin: 0 0 .25rem; }
.error-summary { border: 3px solid var(--danger); padding: .5rem 1rem; margin: 1rem 0; }
.error-summary h2 { margin-top: .25rem; }
.notice { border-left: 4px solid var(--accent); background: var(--panel); padding: .25rem 1rem; margin: 1rem 0; }
button { font: inherit; padding: .55rem 1.1rem; border-radius: 999px; border: 2px solid var(--accent); background: var(--accent); color: var(--bg); font-weight: 600; cursor: pointer; }
button.secondary { background: transparent; color: var(--accent); }
button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; font-weight: 400; }
.actions { display: flex; gap: .75rem; margin: 1.5rem 0; flex-wrap: wrap; }
form.inline { display: inline; }
.app-card { border: 1px solid var(--line); border-radius: 8px; padding: 1rem 1.25rem; background: var(--panel); }
.permissions li, .scopes li { margin: .35rem 0; }
.scopes code { font-size: .9em; }
dl.keys { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; }
dl.keys dt { font-weight: 600; }
dl.keys dd { margin: 0; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; word-break: break-all; }
.pin { font-size: 2.5rem; letter-spacing: .3rem; font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); }
fieldset { border: 1px solid var(--line); border-radius: 6px; margin: 1rem 0; }
.check { display: flex; gap: .5rem; align-items: flex-start; }
.check input { width: auto; margin-top: .35rem; }
pre { overflow-x: auto; white-space: pre-wrap; word-break: break-word; background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: .5rem .75rem; font-size: .85em; }
.app-nav { display: flex; gap: 1rem; flex-wrap: wrap; list-style: none; padding: 0; }
article.post { margin: .75rem 0; }
blockquote.quoted { border-left: 3px solid var(--line); margin: .5rem 0; padding: 0 .75rem; }
`;
