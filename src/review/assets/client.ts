/**
 * The review page's script: plain JavaScript served by us (no framework, nothing fetched from elsewhere),
 * kept here as text so the package carries it. Keyboard first: j/k move, a accepts, e/u/r/n edit value,
 * unit, range or name, x marks a row as not a result. Every change is one POST that answers with the new
 * state, so what the page shows is always what was saved.
 */
export const REVIEW_JS = String.raw`(function () {
  'use strict';
  var docId = document.body.getAttribute('data-doc');
  var base = '/review/' + encodeURIComponent(docId);
  var FIELDS = ['biomarker', 'resultValue', 'resultUnit', 'referenceRangeText'];
  var KEY_FIELD = { e: 'resultValue', u: 'resultUnit', r: 'referenceRangeText', n: 'biomarker' };
  var state = null;
  var cur = 0;
  var shownPage = null;
  var busy = false;
  var $ = function (id) { return document.getElementById(id); };
  var img = $('page-img');
  var box = $('box');
  var form = $('edit');

  function text(el, value) { el.textContent = value == null ? '' : String(value); return el; }
  function cell(tr, value) { tr.appendChild(text(document.createElement('td'), value)); }
  function say(message) {
    text($('status'), message);
    clearTimeout(say.timer);
    say.timer = setTimeout(function () { text($('status'), ''); }, 4000);
  }

  function request(path, options) {
    return fetch(base + '/api' + path, Object.assign({ credentials: 'same-origin', cache: 'no-store' }, options))
      .then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (body) {
          if (!res.ok) throw new Error(body.detail || body.message || ('HTTP ' + res.status));
          return body;
        });
      });
  }

  function rowState(row) {
    if (row.removed) return 'not a result';
    if (row.reviewed) return row.reviewed.action === 'edit' ? 'edited' : 'accepted';
    return row.open ? 'doubtful' : '';
  }

  function renderTable() {
    var body = document.querySelector('#rows tbody');
    body.textContent = '';
    state.rows.forEach(function (row, i) {
      var tr = document.createElement('tr');
      tr.dataset.id = row.id;
      if (row.open) tr.classList.add('doubt');
      if (row.reviewed && !row.removed) tr.classList.add('reviewed');
      if (row.removed) tr.classList.add('removed');
      if (i === cur) tr.classList.add('current');
      cell(tr, row.biomarker);
      cell(tr, row.resultValue);
      cell(tr, row.resultUnit);
      cell(tr, row.referenceRangeText);
      cell(tr, row.page);
      cell(tr, rowState(row));
      tr.addEventListener('click', function () { go(i); });
      body.appendChild(tr);
    });
    var current = body.children[cur];
    if (current) current.scrollIntoView({ block: 'nearest' });
  }

  function renderDetail() {
    var row = state.rows[cur];
    var detail = $('detail');
    detail.textContent = '';
    if (!row) { text(detail, 'No results in this document.'); return; }
    var title = document.createElement('strong');
    text(title, row.biomarker + ' = ' + (row.resultValue == null ? '(none)' : row.resultValue) +
      (row.resultUnit ? ' ' + row.resultUnit : ''));
    detail.appendChild(title);
    var meta = document.createElement('div');
    text(meta, row.panelName + ' \u00b7 page ' + (row.page == null ? '?' : row.page) + ' \u00b7 range ' +
      (row.referenceRangeText || '(none)') + ' \u00b7 LOINC ' + (row.loincCode || '-') + ' \u00b7 UCUM ' +
      (row.ucumCode || '-'));
    detail.appendChild(meta);
    row.doubts.forEach(function (d) {
      var p = document.createElement('div');
      p.className = row.open ? 'doubt' : 'done';
      text(p, (row.open ? 'Doubt: ' : 'Resolved: ') + d.message + ' (' + d.code + ')');
      detail.appendChild(p);
    });
    if (row.reviewed) {
      var r = document.createElement('div');
      r.className = 'done';
      text(r, rowState(row) + ' by ' + row.reviewed.by + ' at ' + row.reviewed.at);
      detail.appendChild(r);
    }
  }

  function renderRevisions() {
    var list = $('revisions');
    list.textContent = '';
    state.revisions.slice().reverse().forEach(function (rev) {
      var li = document.createElement('li');
      var what = rev.changes ? ' ' + Object.keys(rev.changes).map(function (k) {
        return k + '=' + JSON.stringify(rev.changes[k]);
      }).join(', ') : '';
      text(li, rev.at + ' ' + rev.by + ': ' + rev.action + ' ' + rev.resultId + what);
      list.appendChild(li);
    });
  }

  function placeBox() {
    var row = state && state.rows[cur];
    if (!row || !row.bbox || !img.naturalWidth || row.bbox.page !== shownPage) { box.hidden = true; return; }
    var scale = (img.clientWidth / img.naturalWidth) * (state.dpi / 72);
    var pad = 3;
    box.style.left = (row.bbox.x * scale - pad) + 'px';
    box.style.top = (row.bbox.y * scale - pad) + 'px';
    box.style.width = (row.bbox.width * scale + 2 * pad) + 'px';
    box.style.height = (row.bbox.height * scale + 2 * pad) + 'px';
    box.hidden = false;
    var pane = $('page-pane');
    var top = row.bbox.y * scale;
    if (top < pane.scrollTop + 40 || top > pane.scrollTop + pane.clientHeight - 80)
      pane.scrollTop = Math.max(0, top - pane.clientHeight / 3);
  }

  function renderPage() {
    var row = state.rows[cur];
    var note = $('no-image');
    if (!state.images) {
      img.hidden = true;
      box.hidden = true;
      note.hidden = false;
      $('pdf-pick').hidden = !state.canAttachPdf;
      text($('no-image-text'), 'No page image: the PDF is not at hand (a job keeps no copy of its PDF once it ends). ' +
        (state.canAttachPdf ? '' : 'Review the PDF itself (assay review report.pdf) or give --pdf to see the pages.'));
      return;
    }
    img.hidden = false;
    note.hidden = true;
    var page = row ? (row.bbox ? row.bbox.page : row.page) : null;
    if (page == null) { box.hidden = true; return; }
    if (page !== shownPage) {
      shownPage = page;
      box.hidden = true;
      img.src = base + '/api/pages/' + page;
      img.alt = 'Page ' + page;
    } else {
      placeBox();
    }
  }

  function render() {
    if (cur >= state.rows.length) cur = Math.max(0, state.rows.length - 1);
    var open = state.rows.filter(function (r) { return r.open; }).length;
    text($('progress'), state.rows.length + ' results, ' + open + ' doubtful left, ' +
      state.revisions.length + ' revisions' + (state.doc.reviewedPath ? ' \u00b7 saved to ' + state.doc.reviewedPath : ''));
    renderTable();
    renderDetail();
    renderRevisions();
    renderPage();
  }

  function go(i) {
    if (!state || state.rows.length === 0) return;
    cur = Math.max(0, Math.min(state.rows.length - 1, i));
    closeEdit();
    render();
  }

  function save(action, changes) {
    var row = state.rows[cur];
    if (!row || busy) return;
    busy = true;
    var body = { resultId: row.id, action: action };
    if (changes) body.changes = changes;
    request('/revisions', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(function (next) {
      state = next;
      say((action === 'not_a_result' ? 'Marked not a result: ' : action === 'edit' ? 'Saved edit: ' : 'Accepted: ') +
        row.biomarker);
      closeEdit();
      go(cur + 1);
    }).catch(function (err) { say('Not saved: ' + err.message); })
      .then(function () { busy = false; });
  }

  function openEdit(field) {
    var row = state.rows[cur];
    if (!row) return;
    FIELDS.forEach(function (f) { $('f-' + f).value = row[f] == null ? '' : row[f]; });
    form.hidden = false;
    var input = $('f-' + field);
    input.focus();
    input.select();
  }

  function closeEdit() {
    if (form.hidden) return;
    form.hidden = true;
    if (document.activeElement && form.contains(document.activeElement)) document.activeElement.blur();
  }

  function submitEdit() {
    var row = state.rows[cur];
    var changes = {};
    FIELDS.forEach(function (f) {
      var value = $('f-' + f).value.trim();
      var before = row[f] == null ? '' : String(row[f]);
      if (value !== before) changes[f] = f === 'biomarker' ? value : (value === '' ? null : value);
    });
    if (changes.biomarker === '') { say('The name cannot be empty.'); return; }
    if (Object.keys(changes).length === 0) { closeEdit(); say('Nothing changed.'); return; }
    save('edit', changes);
  }

  form.addEventListener('submit', function (event) { event.preventDefault(); submitEdit(); });
  form.addEventListener('keydown', function (event) {
    if (event.key === 'Enter') { event.preventDefault(); submitEdit(); }
    else if (event.key === 'Escape') { event.preventDefault(); closeEdit(); say('Edit cancelled.'); }
  });

  document.addEventListener('keydown', function (event) {
    if (!state || event.ctrlKey || event.metaKey || event.altKey) return;
    if (form.contains(event.target) || event.target.tagName === 'INPUT') return;
    var key = event.key;
    if (key === 'j' || key === 'ArrowDown') go(cur + 1);
    else if (key === 'k' || key === 'ArrowUp') go(cur - 1);
    else if (key === 'a') save('accept');
    else if (key === 'x') save('not_a_result');
    else if (KEY_FIELD[key]) openEdit(KEY_FIELD[key]);
    else return;
    event.preventDefault();
  });

  $('pdf-file').addEventListener('change', function (event) {
    var file = event.target.files[0];
    if (!file) return;
    request('/pdf', { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: file })
      .then(function (next) { state = next; shownPage = null; event.target.blur(); render(); })
      .catch(function (err) { say('PDF not taken: ' + err.message); });
  });
  img.addEventListener('load', placeBox);
  img.addEventListener('error', function () { box.hidden = true; say('The page image could not be rendered.'); });
  window.addEventListener('resize', placeBox);
  ['json', 'fhir', 'csv'].forEach(function (f) { $('export-' + f).href = base + '/api/export/' + f; });

  request('/state').then(function (s) {
    state = s;
    document.body.dataset.ready = 'true';
    render();
  }).catch(function (err) { text($('detail'), 'Could not load the review: ' + err.message); });
}());
`;
