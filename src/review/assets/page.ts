/**
 * The review page's HTML and stylesheet. Kept in the code rather than as files beside it so the build
 * (tsc) and the published package carry them with nothing extra; no inline script or style, so the
 * strict CSP holds.
 */

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

const HEAD = (title: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="/review/assets/icon.svg">
<link rel="stylesheet" href="/review/assets/review.css">
</head>`;

/** The page of one document; the script reads its id from data-doc and everything else from the API. */
export function reviewHtml(docId: string, label: string): string {
  return `${HEAD(`Review: ${label}`)}
<body data-doc="${escapeHtml(docId)}">
<header>
  <h1>Review <span id="label">${escapeHtml(label)}</span></h1>
  <p id="progress" aria-live="polite"></p>
  <nav id="exports">Export reviewed:
    <a id="export-json" download>JSON</a> <a id="export-fhir" download>FHIR</a> <a id="export-csv" download>CSV</a>
  </nav>
</header>
<main>
  <section id="page-pane" aria-label="Page image">
    <div id="page-wrap"><img id="page-img" alt=""><div id="box" hidden></div></div>
    <div id="no-image" hidden>
      <p id="no-image-text"></p>
      <label id="pdf-pick" hidden>Choose this report's PDF to see its pages (held in memory for this session,
        never stored): <input type="file" id="pdf-file" accept="application/pdf"></label>
    </div>
  </section>
  <section id="table-pane" aria-label="Extracted results">
    <div id="detail" aria-live="polite"></div>
    <form id="edit" hidden autocomplete="off">
      <label>Name <input id="f-biomarker" name="biomarker"></label>
      <label>Value <input id="f-resultValue" name="resultValue"></label>
      <label>Unit <input id="f-resultUnit" name="resultUnit"></label>
      <label>Range <input id="f-referenceRangeText" name="referenceRangeText"></label>
      <p class="hint">Enter saves, Esc cancels. An empty field saves as empty.</p>
    </form>
    <table id="rows">
      <thead><tr><th>Test</th><th>Value</th><th>Unit</th><th>Range</th><th>Page</th><th>State</th></tr></thead>
      <tbody></tbody>
    </table>
    <h2>Revisions</h2>
    <ol id="revisions"></ol>
  </section>
</main>
<footer id="keys">
  <kbd>j</kbd>/<kbd>&darr;</kbd> next &middot; <kbd>k</kbd>/<kbd>&uarr;</kbd> previous &middot;
  <kbd>a</kbd> accept &middot; <kbd>e</kbd> edit value &middot; <kbd>u</kbd> unit &middot; <kbd>r</kbd> range
  &middot; <kbd>n</kbd> name &middot; <kbd>x</kbd> not a result &middot; <kbd>Enter</kbd> save &middot;
  <kbd>Esc</kbd> cancel
</footer>
<p id="status" role="status" aria-live="polite"></p>
<script src="/review/assets/review.js" defer></script>
</body>
</html>
`;
}

/** The local server's start page when several documents are under review: links, nothing else. */
export function indexHtml(docs: ReadonlyArray<{ id: string; label: string }>): string {
  const items = docs
    .map((d) => `<li><a href="/review/${encodeURIComponent(d.id)}">${escapeHtml(d.label)}</a></li>`)
    .join('\n');
  return `${HEAD('Review')}
<body class="index"><h1>Documents to review</h1><ol>${items}</ol></body>
</html>
`;
}

/** A favicon of our own, so the browser does not ask for /favicon.ico (refused outside the session). */
export const REVIEW_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#d9480f"/>' +
  '<path d="M4 8.5l3 3 5-7" stroke="#fff" stroke-width="2" fill="none"/></svg>';

export const REVIEW_CSS = `
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: #1b1b1b; background: #f4f4f2; }
header { display: flex; gap: 1.5em; align-items: baseline; padding: .5em 1em; background: #fff; border-bottom: 1px solid #ccc; }
h1 { font-size: 16px; margin: 0; }
h1 span { font-weight: normal; color: #555; }
h2 { font-size: 14px; margin: 1em 0 .3em; }
#progress { margin: 0; color: #555; }
#exports { margin-left: auto; }
#exports a { margin-left: .5em; }
main { display: grid; grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); gap: 1em; padding: 1em; height: calc(100vh - 6.5em); }
#page-pane { overflow: auto; background: #ddd; border: 1px solid #bbb; position: relative; }
#page-wrap { position: relative; display: inline-block; }
#page-img { display: block; max-width: 100%; background: #fff; }
#box { position: absolute; border: 3px solid #d9480f; background: rgba(255, 200, 0, .18); pointer-events: none; }
#no-image { padding: 1em; }
#pdf-pick { display: block; }
#pdf-pick[hidden] { display: none; }
#table-pane { overflow: auto; background: #fff; border: 1px solid #bbb; padding: .5em; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .2em .4em; border-bottom: 1px solid #eee; }
th { position: sticky; top: 0; background: #fff; }
tr.doubt td:first-child { border-left: 4px solid #e8590c; }
tr.reviewed td:first-child { border-left: 4px solid #2b8a3e; }
tr.removed td { text-decoration: line-through; color: #888; }
tr.current { background: #fff3bf; outline: 2px solid #d9480f; }
#detail { min-height: 4.5em; padding: .4em; background: #f8f9fa; border: 1px solid #e9ecef; margin-bottom: .5em; }
#detail .doubt { color: #c92a2a; }
#detail .done { color: #2b8a3e; }
#edit { display: grid; grid-template-columns: repeat(2, 1fr); gap: .3em .8em; margin-bottom: .5em; padding: .4em; border: 2px solid #1971c2; }
#edit[hidden] { display: none; }
#edit label { display: flex; flex-direction: column; font-size: 12px; }
#edit input { font: inherit; padding: .2em; }
#edit .hint { grid-column: 1 / -1; margin: 0; font-size: 12px; color: #555; }
#revisions { font-size: 12px; color: #333; }
footer { position: fixed; bottom: 0; left: 0; right: 0; padding: .3em 1em; background: #fff; border-top: 1px solid #ccc; font-size: 12px; }
kbd { border: 1px solid #aaa; border-radius: 3px; padding: 0 .3em; background: #f8f8f8; }
#status { position: fixed; right: 1em; bottom: 2.2em; margin: 0; padding: .3em .6em; background: #212529; color: #fff; border-radius: 3px; }
#status:empty { display: none; }
body.index { padding: 1em; }
`;
