// logsleuth incident timeline. Reads the model from #timeline-data and
// draws it. Log text only ever reaches the document through textContent
// and attribute values, never as markup. Only visible lanes, and in them
// only items inside the visible time range, are drawn, so a bundle with
// hundreds of peers and tens of thousands of events stays responsive.
(function () {
  'use strict';
  var M = JSON.parse(document.getElementById('timeline-data').textContent);
  var SVGNS = 'http://www.w3.org/2000/svg';
  var LABEL_W = 196, RIGHT_PAD = 18, GROUP_H = 24, SUM_H = 26;
  var SEV = { error: '#d1242f', warning: '#bf8700', note: '#0969da' };

  // Colours and shapes: one table, shared by the lanes and the legend.
  var BAND = {
    leader: ['#2563eb', 'leader (term)'], follower: ['#bfdbfe', 'follower (term)'],
    candidate: ['#fcd34d', 'candidate'], term: ['#e2e8f0', 'term, role not printed'], 'other-role': ['#ddd6fe', 'other role'],
    lease: ['#10b981', 'leader lease'], 'lease-revoked': ['#f59e0b', 'old lease, as revoked'],
    'ht-lease': ['#a7f3d0', 'ht lease (taken → expiry)'], 'ht-lease-expired': ['#e5e7eb', 'ht lease read after expiry'],
    'member-voter': ['#c4b5fd', 'config member: VOTER'], 'member-pre_voter': ['#e9d5ff', 'config member: PRE_VOTER'],
    'member-observer': ['#f5d0fe', 'config member: OBSERVER'], 'member-pre_observer': ['#fae8ff', 'PRE_OBSERVER'], 'member-member': ['#ddd6fe', 'config member'],
    'config-pending': ['#f9a8d4', 'pending config change'], 'config-aborted': ['#fda4af', 'aborted config change'],
    rbs: ['#67e8f9', 'remote bootstrap session'], 'rbs-failed': ['#fca5a5', 'failed remote bootstrap'],
    'es-term': ['#bfdbfe', 'primary term'], recovery: ['#67e8f9', 'peer recovery'],
    disruption: ['rgba(209,36,47,0.07)', 'network disruption']
  };
  var MARK = {
    'op-pending': ['ring', '#64748b', 4, 'op added (pending)'], 'op-replicated': ['dot', '#16a34a', 4, 'op replicated'],
    'op-aborted': ['x', '#dc2626', 4, 'op aborted'], 'op-too-low': ['diamond', '#d1242f', 7, 'new op (too low)'],
    'op-incremented': ['diamond', '#bf8700', 6, 'op ht incremented'],
    'bound-violated': ['tick', '#d1242f', 9, 'bound it broke'], bound: ['tick', '#94a3b8', 7, 'bound it held'],
    'last-replicated': ['tick', '#16a34a', 3, 'last replicated'],
    assert: ['tri', '#d1242f', 6, 'assertion / FATAL'], warn: ['tri', '#bf8700', 5, 'warning'],
    election: ['star', '#7c3aed', 5, 'election started'], 'election-won': ['star', '#2563eb', 6, 'election won'], 'election-lost': ['star', '#94a3b8', 5, 'election lost'],
    'vote-yes': ['dot', '#16a34a', 3, 'vote granted'], 'vote-no': ['dot', '#dc2626', 3, 'vote denied'],
    noop: ['square', '#2563eb', 3, 'NO_OP (leader claim)'], leader: ['square', '#2563eb', 4, 'becomes leader'],
    stepdown: ['square', '#64748b', 4, 'steps down'], term: ['ring', '#64748b', 3, 'term / role change'],
    revoke: ['bolt', '#f59e0b', 6, 'lease revoked'], 'lease-reset': ['bolt', '#10b981', 5, 'own lease reset'], 'lease-wait': ['ring', '#10b981', 4, 'waits for old lease'],
    config: ['square', '#8b5cf6', 3, 'config change'], rbs: ['square', '#0891b2', 3, 'remote bootstrap'], delete: ['x', '#64748b', 4, 'delete'],
    dump: ['square', '#475569', 4, 'MVCC dump printed'],
    'commit-safe': ['square', '#16a34a', 5, 'safe commit'], 'commit-stale': ['square', '#d1242f', 6, 'stale "safe" commit'], 'commit-deleted': ['hsquare', '#64748b', 4, 'deleted commit'],
    'op-index': ['dot', '#0f766e', 3, 'index op'], 'op-delete': ['x', '#0f766e', 3, 'delete op'], 'op-noop': ['ring', '#0f766e', 3, 'no-op'], 'op-failed': ['x', '#dc2626', 4, 'failed op'],
    recovery: ['ring', '#0891b2', 3, 'recovery step'], routing: ['dot', '#cbd5e1', 2, 'routing table row'],
    event: ['dot', '#94a3b8', 3, 'other event']
  };
  var SERIES = {
    served: ['#7c3aed', 'served safe time', ''], propagated: ['#0891b2', 'propagated safe time', ''], 'follower-safe': ['#64748b', 'safe time for followers', '4 3'],
    lcp: ['#16a34a', 'local checkpoint', ''], gcp: ['#2563eb', 'global checkpoint', ''], 'max-seq': ['#f97316', 'max_seq_no', '4 3']
  };

  function h(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function s(tag, attrs, parent) {
    var e = document.createElementNS(SVGNS, tag);
    for (var k in attrs) if (Object.prototype.hasOwnProperty.call(attrs, k)) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function stext(parent, x, y, cls, text, anchor) {
    var t = s('text', { x: x, y: y, 'class': cls }, parent);
    if (anchor) t.setAttribute('text-anchor', anchor);
    t.textContent = text;
    return t;
  }
  function pad(n, w) { n = String(n); while (n.length < w) n = '0' + n; return n; }

  // Times are microseconds. The wall axis shows them as the log printed
  // them (the model holds them as if UTC, so UTC getters give them back);
  // the hybrid-time axis shows physical microseconds the same way and says
  // so; the order axis shows event numbers.
  function clock(us, prec) {
    var ms = Math.floor(us / 1000), d = new Date(ms);
    var str = pad(d.getUTCHours(), 2) + ':' + pad(d.getUTCMinutes(), 2) + ':' + pad(d.getUTCSeconds(), 2);
    if (prec >= 3) {
      var frac = pad(((us % 1000000) + 1000000) % 1000000, 6);
      str += '.' + frac.slice(0, prec);
    }
    return str;
  }
  function day(us) {
    var d = new Date(Math.floor(us / 1000));
    return d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1, 2) + '-' + pad(d.getUTCDate(), 2);
  }
  function fmtFull(axis, us) {
    if (axis === 'order') return 'event #' + Math.round(us / 1e6);
    if (axis === 'ht') return 'ht ' + us + ' (' + day(us) + ' ' + clock(us, 6) + ')';
    return day(us) + ' ' + clock(us, 6);
  }
  function fmtSpan(us) {
    us = Math.abs(us);
    if (us < 1000) return Math.round(us) + ' µs';
    if (us < 1e6) return (us / 1000).toFixed(us < 1e4 ? 2 : 1) + ' ms';
    if (us < 120e6) return (us / 1e6).toFixed(us < 1e7 ? 3 : 1) + ' s';
    if (us < 7200e6) return (us / 60e6).toFixed(1) + ' min';
    return (us / 3600e6).toFixed(1) + ' h';
  }
  var STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 2e4, 5e4, 1e5, 2e5, 5e5, 1e6, 2e6, 5e6, 1e7, 15e6, 3e7, 6e7, 12e7, 3e8, 6e8, 9e8, 18e8, 36e8, 72e8, 216e8, 432e8, 864e8, 1728e8, 6048e8];
  function tickStep(span, px, axis) {
    var want = span / Math.max(1, px / 110);
    if (axis === 'order') want = Math.max(want, 1e6); // whole events
    for (var i = 0; i < STEPS.length; i++) if (STEPS[i] >= want) return STEPS[i];
    return STEPS[STEPS.length - 1];
  }
  function tickLabel(axis, us, step) {
    if (axis === 'order') return '#' + Math.round(us / 1e6);
    var prec = step >= 1e6 ? 0 : step >= 1e3 ? 3 : 6;
    return clock(us, prec);
  }

  function evText(i) {
    var l = M.lines[i];
    return { pos: M.sources[l.s] + ':' + l.l, text: l.t };
  }

  var state = { finding: -1, filter: '' };
  var tip = document.getElementById('tip');
  var panes = [];

  function Pane(model, index, host) {
    var self = this;
    this.m = model; this.index = index;
    var span = model.max - model.min, padding = model.axis === 'order' ? 5e5 : Math.max(span * 0.02, 1);
    this.min = model.min - padding; this.max = model.max + padding;
    this.t0 = this.min; this.t1 = this.max;
    this.el = h('section', 'pane'); this.el.setAttribute('data-axis', model.axis);
    var head = h('div', 'pane-head');
    head.appendChild(h('span', 'ptitle', model.title));
    head.appendChild(h('span', 'axis ' + model.axis, model.axis === 'ht' ? 'hybrid time' : model.axis === 'order' ? 'event order' : 'wall time'));
    var note = h('span', 'pnote', model.note); note.title = model.note;
    head.appendChild(note);
    this.rangeEl = h('span', 'range');
    head.appendChild(this.rangeEl);
    [['−', 'zoom out', function () { self.zoomAt(2, 0.5); }], ['+', 'zoom in', function () { self.zoomAt(0.5, 0.5); }], ['fit', 'show everything', function () { self.fit(); }]].forEach(function (b) {
      var btn = h('button', '', b[0]); btn.title = b[1]; btn.addEventListener('click', b[2]); head.appendChild(btn);
    });
    this.el.appendChild(head);
    this.ruler = s('svg', { 'class': 'ruler' });
    this.el.appendChild(this.ruler);
    this.scroll = h('div', 'scroll');
    this.svg = s('svg', { 'class': 'lanes' });
    this.scroll.appendChild(this.svg);
    this.spacer = h('div', 'spacer');
    this.scroll.appendChild(this.spacer);
    this.el.appendChild(this.scroll);
    host.appendChild(this.el);
    this.refs = [];
    this.scroll.addEventListener('scroll', function () { self.request(); });
    this.wire();
    this.layout();
  }

  Pane.prototype.laneHeight = function (l) {
    if (this.m.axis === 'ht') return Math.max(64, Math.min(320, (l.rows || 1) * 8 + 24));
    return l.series && l.series.length ? 112 : 58;
  };

  // layout flattens the groups and lanes that pass the filter into rows
  // with y offsets, for the binary search that finds what is visible.
  Pane.prototype.layout = function () {
    var rows = [], y = 0, f = state.filter;
    this.laneY = {};
    for (var gi = 0; gi < this.m.groups.length; gi++) {
      var g = this.m.groups[gi], lanes = [];
      for (var li = 0; li < g.lanes.length; li++) {
        var l = g.lanes[li];
        if (!f || (g.label + ' ' + l.label + ' ' + l.title + ' ' + (l.sub || '')).toLowerCase().indexOf(f) >= 0) lanes.push(l);
      }
      // A group's summary row stands for the lanes the page's budget
      // left undrawn; the filter finds it by the group and its flags.
      var sum = g.sum && (!f || (g.label + ' ' + (g.sum.f || '')).toLowerCase().indexOf(f) >= 0) ? g.sum : null;
      if (!lanes.length && !sum) continue;
      rows.push({ group: g, y: y, h: GROUP_H }); y += GROUP_H;
      for (var j = 0; j < lanes.length; j++) {
        var lh = this.laneHeight(lanes[j]);
        rows.push({ lane: lanes[j], y: y, h: lh, alt: j % 2 === 1 });
        this.laneY[lanes[j].id] = { y: y, h: lh };
        y += lh;
      }
      if (sum) { rows.push({ sum: sum, y: y, h: SUM_H }); y += SUM_H; }
    }
    this.rows = rows; this.total = y;
    // A pane asks for the height of its lanes (and no more), so a pane
    // with a few lanes leaves the room to the one with many.
    this.el.style.flex = '1 1 ' + (y + 60) + 'px';
    this.el.style.maxHeight = (y + 64) + 'px';
    this.request();
  };

  Pane.prototype.request = function () {
    var self = this;
    if (this.pending) return;
    this.pending = true;
    window.requestAnimationFrame(function () { self.pending = false; self.draw(); });
  };

  Pane.prototype.x = function (t) {
    return LABEL_W + (t - this.t0) / (this.t1 - this.t0) * (this.width - LABEL_W - RIGHT_PAD);
  };
  Pane.prototype.t = function (x) {
    return this.t0 + (x - LABEL_W) / (this.width - LABEL_W - RIGHT_PAD) * (this.t1 - this.t0);
  };

  Pane.prototype.setView = function (t0, t1) {
    var minSpan = this.m.axis === 'order' ? 1e6 : 2;
    if (t1 - t0 < minSpan) { var c = (t0 + t1) / 2; t0 = c - minSpan / 2; t1 = c + minSpan / 2; }
    var full = this.max - this.min;
    if (t1 - t0 > full * 4) { t0 = this.min - full * 1.5; t1 = this.max + full * 1.5; }
    this.t0 = t0; this.t1 = t1;
    this.request();
  };
  Pane.prototype.zoomAt = function (factor, frac) {
    var c = this.t0 + (this.t1 - this.t0) * frac;
    this.setView(c - (c - this.t0) * factor, c + (this.t1 - c) * factor);
  };
  Pane.prototype.fit = function () { this.setView(this.min, this.max); };

  Pane.prototype.wire = function () {
    var self = this, drag = null;
    function frac(ev) {
      var r = self.svg.getBoundingClientRect();
      return Math.max(0, Math.min(1, (ev.clientX - r.left - LABEL_W) / (self.width - LABEL_W - RIGHT_PAD)));
    }
    function wheel(ev, always) {
      if (ev.ctrlKey || ev.metaKey || always) {
        ev.preventDefault();
        self.zoomAt(Math.pow(1.0015, ev.deltaY), frac(ev));
      } else if (ev.shiftKey || Math.abs(ev.deltaX) > Math.abs(ev.deltaY)) {
        ev.preventDefault();
        var d = ev.shiftKey ? ev.deltaY : ev.deltaX;
        var dt = d / (self.width - LABEL_W - RIGHT_PAD) * (self.t1 - self.t0);
        self.setView(self.t0 + dt, self.t1 + dt);
      }
    }
    this.scroll.addEventListener('wheel', function (ev) { wheel(ev, false); }, { passive: false });
    this.ruler.addEventListener('wheel', function (ev) { wheel(ev, true); }, { passive: false });
    this.svg.addEventListener('mousedown', function (ev) {
      if (ev.button !== 0) return;
      drag = { x: ev.clientX, t0: self.t0, t1: self.t1, moved: false };
    });
    window.addEventListener('mousemove', function (ev) {
      if (!drag) return;
      var dx = ev.clientX - drag.x;
      if (Math.abs(dx) > 3) { drag.moved = true; self.svg.classList.add('dragging'); }
      if (drag.moved) {
        var dt = -dx / (self.width - LABEL_W - RIGHT_PAD) * (drag.t1 - drag.t0);
        self.setView(drag.t0 + dt, drag.t1 + dt);
      }
    });
    window.addEventListener('mouseup', function () {
      if (drag && drag.moved) self.suppressClick = true;
      drag = null; self.svg.classList.remove('dragging');
    });
    this.svg.addEventListener('dblclick', function () { self.fit(); });
    this.ruler.addEventListener('dblclick', function () { self.fit(); });
    this.svg.addEventListener('click', function (ev) {
      if (self.suppressClick) { self.suppressClick = false; return; }
      var t = ev.target.closest ? ev.target.closest('[data-ref]') : null;
      if (!t) return;
      var ref = self.refs[+t.getAttribute('data-ref')];
      if (ref.finding !== undefined) selectFinding(ref.finding, false);
      else showItem(self, ref);
    });
    this.svg.addEventListener('mousemove', function (ev) {
      var t = ev.target.closest ? ev.target.closest('[data-ref]') : null;
      if (!t) { tip.style.display = 'none'; return; }
      showTip(self, self.refs[+t.getAttribute('data-ref')], ev);
    });
    this.svg.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
  };

  // Finds the first index in a (sorted by .a) whose time is >= t.
  function lowerBound(a, t) {
    var lo = 0, hi = a.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (a[mid].a < t) lo = mid + 1; else hi = mid; }
    return lo;
  }

  Pane.prototype.draw = function () {
    var W = this.scroll.clientWidth, H = this.scroll.clientHeight;
    if (!W || !H) return;
    this.width = W;
    var svg = this.svg, top = this.scroll.scrollTop;
    svg.setAttribute('width', W); svg.setAttribute('height', H);
    this.spacer.style.height = Math.max(0, this.total - H) + 'px';
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    this.refs = [];
    this.drawRuler(W);
    var defs = s('defs', {}, svg);
    var clip = s('clipPath', { id: 'clip' + this.index }, defs);
    s('rect', { x: LABEL_W, y: 0, width: W - LABEL_W - RIGHT_PAD + 8, height: H }, clip);
    var bg = s('g', {}, svg), over = s('g', {}, svg), grid = s('g', {}, svg), body = s('g', { 'clip-path': 'url(#clip' + this.index + ')' }, svg), labels = s('g', {}, svg);
    // Pane-wide spans (a disruption) under everything.
    var spans = this.m.spans || [];
    for (var si = 0; si < spans.length; si++) {
      var sp = spans[si];
      if (sp.b < this.t0 || sp.a > this.t1) continue;
      var x0 = Math.max(LABEL_W, this.x(sp.a)), x1 = Math.min(W - RIGHT_PAD, this.x(sp.b));
      s('rect', { x: x0, y: 0, width: Math.max(2, x1 - x0), height: H, fill: BAND.disruption[0], stroke: '#d1242f', 'stroke-opacity': 0.35, 'stroke-dasharray': '4 3', 'data-ref': this.refs.length }, over);
      this.refs.push({ kind: 'network disruption', item: sp, band: true });
    }
    // Vertical grid at the ruler's ticks.
    for (var gi = 0; gi < this.ticks.length; gi++) {
      var tx = this.x(this.ticks[gi]);
      s('line', { x1: tx, x2: tx, y1: 0, y2: H, stroke: '#eef1f4' }, grid);
    }
    var rows = this.rows, lo = 0, hi = rows.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (rows[mid].y + rows[mid].h <= top) lo = mid + 1; else hi = mid; }
    var drawn = 0;
    for (var i = lo; i < rows.length && rows[i].y < top + H; i++) {
      var row = rows[i], y = row.y - top;
      if (row.group) {
        s('rect', { x: 0, y: y, width: W, height: row.h, fill: '#eef2f7' }, bg);
        s('line', { x1: 0, x2: W, y1: y + row.h - 0.5, y2: y + row.h - 0.5, stroke: '#d9dee4' }, bg);
        stext(labels, 8, y + 16, 'glbl', row.group.label);
        continue;
      }
      if (row.sum) { drawn += this.drawSummary(bg, labels, row.sum, y, row.h, W); continue; }
      var l = row.lane;
      s('rect', { x: 0, y: y, width: W, height: row.h, fill: row.alt ? '#fafbfc' : '#ffffff' }, bg);
      s('line', { x1: 0, x2: W, y1: y + row.h - 0.5, y2: y + row.h - 0.5, stroke: '#eef1f4' }, bg);
      s('rect', { x: 0, y: y, width: LABEL_W - 6, height: row.h, fill: row.alt ? '#f6f8fa' : '#fbfcfd' }, labels);
      s('line', { x1: LABEL_W - 6, x2: LABEL_W - 6, y1: y, y2: y + row.h, stroke: '#d9dee4' }, labels);
      var lg = s('g', {}, labels);
      s('title', {}, lg).textContent = l.title;
      stext(lg, 12, y + 16, 'lbl mono', l.label);
      if (l.sub) stext(labels, 12, y + 29, 'tick', l.sub.length > 28 ? l.sub.slice(0, 27) + '…' : l.sub);
      if (this.m.axis === 'ht') stext(labels, 12, y + (l.sub ? 42 : 29), 'tick', (l.rows || 0) + ' entries ↓');
      else if (l.series && l.series.length) stext(labels, 12, y + (l.sub ? 42 : 29), 'tick', 'seq# ' + (l.ymin || 0) + '…' + (l.ymax || 0));
      drawn += this.drawLane(body, l, y, row.h);
    }
    this.drawFindings(body, top, H);
    this.rangeEl.textContent = this.m.axis === 'order' ? Math.round((this.t1 - this.t0) / 1e6) + ' events visible' : day(this.t0) + '  ' + fmtSpan(this.t1 - this.t0) + ' visible';
    this.drawn = drawn;
  };

  // drawSummary draws the row of a group's undrawn lanes: what they held,
  // the time they span as a hatched bar, and the flags that draw them.
  Pane.prototype.drawSummary = function (bg, labels, sm, y, hgt, W) {
    s('rect', { x: 0, y: y, width: W, height: hgt, fill: '#f6f8fa' }, bg);
    s('line', { x1: 0, x2: W, y1: y + hgt - 0.5, y2: y + hgt - 0.5, stroke: '#eef1f4' }, bg);
    stext(labels, 12, y + 13, 'tick', sm.n + (sm.n > 1 ? ' lanes' : ' lane') + ' not drawn');
    if (sm.b + sm.m + sm.p > 0 && sm.z >= this.t0 && sm.a <= this.t1) {
      var x0 = Math.max(LABEL_W, this.x(sm.a)), x1 = Math.min(W - RIGHT_PAD, this.x(sm.z));
      s('rect', { 'class': 'sumbar', x: x0, y: y + 4, width: Math.max(2, x1 - x0), height: 4, fill: '#cbd5e1' }, bg);
    }
    var what = [sm.b + ' bands', sm.m + ' marks'];
    if (sm.p) what.push(sm.p + ' points');
    var text = what.join(', ') + (sm.b + sm.m + sm.p ? ', ' + fmtFull(this.m.axis, sm.a) + ' to ' + fmtFull(this.m.axis, sm.z) : '') + (sm.f ? ' · to draw: logsleuth analyze ' + sm.f : '');
    stext(labels, LABEL_W + 4, y + 20, 'tick sumtext', text);
    return 0;
  };

  Pane.prototype.drawRuler = function (W) {
    var r = this.ruler;
    while (r.firstChild) r.removeChild(r.firstChild);
    r.setAttribute('width', W); r.setAttribute('height', 26);
    s('rect', { x: 0, y: 0, width: W, height: 26, fill: '#ffffff' }, r);
    s('line', { x1: 0, x2: W, y1: 25.5, y2: 25.5, stroke: '#d9dee4' }, r);
    stext(r, 10, 17, 'tick', this.m.axis === 'ht' ? 'ht (physical µs) →' : this.m.axis === 'order' ? 'event # →' : 'wall time →');
    var spans = this.m.spans || [];
    for (var si = 0; si < spans.length; si++) {
      var sp = spans[si];
      if (sp.b < this.t0 || sp.a > this.t1) continue;
      var x0 = Math.max(LABEL_W, this.x(sp.a)), x1 = Math.min(W - RIGHT_PAD, this.x(sp.b));
      s('rect', { x: x0, y: 16, width: Math.max(2, x1 - x0), height: 9, fill: '#fde2e4' }, r);
      if (x1 - x0 > 70) stext(r, x0 + 3, 24, 'tick', 'disruption').setAttribute('fill', '#d1242f');
    }
    var step = tickStep(this.t1 - this.t0, W - LABEL_W - RIGHT_PAD, this.m.axis);
    this.ticks = [];
    var first = Math.ceil(this.t0 / step) * step;
    for (var t = first; t <= this.t1 && this.ticks.length < 400; t += step) {
      var x = this.x(t);
      if (x < LABEL_W) continue;
      this.ticks.push(t);
      s('line', { x1: x, x2: x, y1: 18, y2: 26, stroke: '#8a939e' }, r);
      stext(r, x, 13, 'tick', tickLabel(this.m.axis, t, step), 'middle');
    }
  };

  Pane.prototype.rowY = function (l, y, hgt, row) {
    var n = Math.max(1, (l.rows || 1) - 1);
    return y + 12 + (hgt - 24) * ((l.rows || 1) > 1 ? row / n : 0.5);
  };

  var WALL_ROWS = [[5, 11], [18, 6], [26, 6], [34, 6]];

  Pane.prototype.drawLane = function (g, l, y, hgt) {
    var count = 0, ht = this.m.axis === 'ht', W = this.width;
    var bands = l.bands || [];
    for (var i = 0; i < bands.length; i++) {
      var b = bands[i];
      if (b.b < this.t0 || b.a > this.t1) continue;
      var x0 = Math.max(LABEL_W - 2, this.x(b.a)), x1 = Math.min(W, this.x(b.b));
      var c = BAND[b.k] || ['#cbd5e1'];
      var by, bh;
      if (ht) { by = this.rowY(l, y, hgt, b.r) - 1.5; bh = 3; } else { var wr = WALL_ROWS[b.r] || WALL_ROWS[0]; by = y + wr[0]; bh = wr[1]; }
      var rect = s('rect', { x: x0, y: by, width: Math.max(1.5, x1 - x0), height: bh, fill: c[0], rx: ht ? 1 : 2, 'data-ref': this.refs.length }, g);
      if (b.o) rect.setAttribute('fill-opacity', 0.75);
      this.refs.push({ lane: l, item: b, band: true });
      if (!ht && b.r === 0 && x1 - x0 > 60) {
        var tt = stext(g, x0 + 4, by + 8.5, 'bandtext', b.t);
        if (b.k === 'leader') tt.setAttribute('fill', '#ffffff');
      }
      count++;
    }
    var ser = l.series || [];
    for (var si = 0; si < ser.length; si++) count += this.drawSeries(g, l, ser[si], y, hgt);
    var marks = l.marks || [], start = lowerBound(marks, this.t0), last = {};
    for (var mi = start; mi < marks.length && marks[mi].a <= this.t1; mi++) {
      var m = marks[mi], mx = this.x(m.a);
      var my = ht ? this.rowY(l, y, hgt, m.r || 0) : y + 48;
      var key = m.k + '|' + (ht ? m.r || 0 : 0);
      if (last[key] !== undefined && mx - last[key] < 1.5) continue; // same pixel: drawn once
      last[key] = mx;
      this.drawMark(g, m, mx, my, this.refs.length);
      this.refs.push({ lane: l, item: m });
      count++;
    }
    return count;
  };

  Pane.prototype.drawSeries = function (g, l, sr, y, hgt) {
    var c = SERIES[sr.k] || ['#64748b', sr.n, ''], pts = sr.p, d = '', ht = this.m.axis === 'ht';
    if (!pts.length) return 0;
    var self = this, lastX = null, lastY = null;
    var vy = function (v) {
      var top = y + 58, bot = y + hgt - 8;
      if ((l.ymax || 0) === (l.ymin || 0)) return (top + bot) / 2;
      return bot - (v - (l.ymin || 0)) / ((l.ymax || 0) - (l.ymin || 0)) * (bot - top);
    };
    for (var i = 0; i < pts.length; i++) {
      var px = this.x(pts[i][0]), py = ht ? this.rowY(l, y, hgt, pts[i][1]) : vy(pts[i][1]);
      px = Math.max(-1e5, Math.min(1e5, px));
      if (lastX === null) d += 'M' + px.toFixed(1) + ' ' + py.toFixed(1);
      else if (ht) d += 'V' + py.toFixed(1) + 'H' + px.toFixed(1);
      else d += 'H' + px.toFixed(1) + 'V' + py.toFixed(1);
      lastX = px; lastY = py;
    }
    d += ht ? 'V' + (y + hgt - 4) : 'H' + (this.width - RIGHT_PAD);
    var path = s('path', { d: d, fill: 'none', stroke: c[0], 'stroke-width': 1.6, 'data-ref': this.refs.length }, g);
    if (c[2]) path.setAttribute('stroke-dasharray', c[2]);
    this.refs.push({ lane: l, series: sr });
    // Points, as hover targets, only where they are on screen.
    for (var j = 0; j < pts.length; j++) {
      if (pts[j][0] < this.t0 || pts[j][0] > this.t1) continue;
      var qx = this.x(pts[j][0]), qy = ht ? this.rowY(l, y, hgt, pts[j][1]) : vy(pts[j][1]);
      s('circle', { cx: qx, cy: qy, r: 2.2, fill: c[0], 'data-ref': this.refs.length }, g);
      this.refs.push({ lane: l, series: sr, pt: pts[j] });
    }
    return 1;
  };

  Pane.prototype.drawMark = function (g, m, x, y, ref) {
    var st = MARK[m.k] || MARK.event, c = st[1], r = st[2], e;
    switch (st[0]) {
      case 'ring': e = s('circle', { cx: x, cy: y, r: r, fill: '#ffffff', stroke: c, 'stroke-width': 1.5 }, g); break;
      case 'diamond': e = s('path', { d: 'M' + x + ' ' + (y - r) + 'L' + (x + r) + ' ' + y + 'L' + x + ' ' + (y + r) + 'L' + (x - r) + ' ' + y + 'Z', fill: c, stroke: '#ffffff', 'stroke-width': 1 }, g); break;
      case 'tri': e = s('path', { d: 'M' + x + ' ' + (y - r) + 'L' + (x + r) + ' ' + (y + r * 0.8) + 'L' + (x - r) + ' ' + (y + r * 0.8) + 'Z', fill: c }, g); break;
      case 'x': e = s('path', { d: 'M' + (x - r) + ' ' + (y - r) + 'L' + (x + r) + ' ' + (y + r) + 'M' + (x + r) + ' ' + (y - r) + 'L' + (x - r) + ' ' + (y + r), stroke: c, 'stroke-width': 2, fill: 'none' }, g); break;
      case 'tick': e = s('rect', { x: x - 1.25, y: y - r, width: 2.5, height: 2 * r, fill: c }, g); break;
      case 'square': e = s('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: c }, g); break;
      case 'hsquare': e = s('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: '#ffffff', stroke: c, 'stroke-width': 1.5 }, g); break;
      case 'star': e = s('path', { d: star(x, y, r), fill: c }, g); break;
      case 'bolt': e = s('path', { d: 'M' + (x + 1) + ' ' + (y - r) + 'L' + (x - r * 0.6) + ' ' + (y + 1) + 'L' + x + ' ' + (y + 1) + 'L' + (x - 1) + ' ' + (y + r) + 'L' + (x + r * 0.6) + ' ' + (y - 1) + 'L' + x + ' ' + (y - 1) + 'Z', fill: c }, g); break;
      default: e = s('circle', { cx: x, cy: y, r: r, fill: c }, g);
    }
    e.setAttribute('data-ref', ref);
    e.setAttribute('class', 'mark');
    // A wider invisible target makes small marks easy to hover.
    s('circle', { cx: x, cy: y, r: Math.max(r + 3, 6), fill: 'transparent', 'data-ref': ref }, g);
    return e;
  };
  function star(x, y, r) {
    var d = '';
    for (var i = 0; i < 10; i++) {
      var a = Math.PI / 5 * i - Math.PI / 2, rr = i % 2 ? r * 0.45 : r;
      d += (i ? 'L' : 'M') + (x + rr * Math.cos(a)).toFixed(1) + ' ' + (y + rr * Math.sin(a)).toFixed(1);
    }
    return d + 'Z';
  }

  // Findings are drawn last, over everything: a line through the lane at
  // the time of the first evidence drawn there and a flag on top.
  Pane.prototype.drawFindings = function (g, top, H) {
    var stack = {};
    for (var fi = 0; fi < M.findings.length; fi++) {
      var f = M.findings[fi];
      for (var li = 0; li < f.locs.length; li++) {
        var loc = f.locs[li];
        if (loc.p !== this.index) continue;
        var ly = this.laneY[loc.l];
        if (!ly || loc.a < this.t0 || loc.a > this.t1) continue;
        var y = ly.y - top;
        if (y + ly.h < 0 || y > H) continue;
        var x = this.x(loc.a), c = SEV[f.sev] || '#57606a', sel = fi === state.finding;
        var lane = this.laneById(loc.l);
        var cy = this.m.axis === 'ht' && lane ? this.rowY(lane, y, ly.h, loc.r || 0) : y + 48;
        // Findings at the same place share the ring and line; their flags
        // stand side by side so each can be clicked.
        var key = loc.l + '|' + Math.round(x / 4), k = stack[key] || 0;
        stack[key] = k + 1;
        var mk = s('g', { 'class': 'finding-marker' + (sel ? ' selected' : ''), 'data-finding': fi, 'data-ref': this.refs.length }, g);
        this.refs.push({ finding: fi });
        if (k === 0 || sel) {
          s('line', { x1: x, x2: x, y1: y + 2, y2: y + ly.h - 2, stroke: c, 'stroke-width': sel ? 2 : 1.2, 'stroke-dasharray': '3 2' }, mk);
          s('circle', { cx: x, cy: cy, r: sel ? 11 : 9, fill: 'none', stroke: c, 'stroke-width': sel ? 3 : 2 }, mk);
        }
        var fx = x + k * 15, fy = y + 2;
        s('path', { d: 'M' + fx + ' ' + fy + 'h13v11h-13z', fill: c, stroke: sel ? '#1f2328' : 'none', 'stroke-width': 1.5, 'class': 'flag' }, mk);
        stext(mk, fx + 6.5, fy + 9, 'bandtext', String(fi + 1), 'middle').setAttribute('fill', '#ffffff');
      }
    }
  };
  Pane.prototype.laneById = function (id) {
    if (!this.laneIndex) {
      this.laneIndex = {};
      for (var gi = 0; gi < this.m.groups.length; gi++) for (var li = 0; li < this.m.groups[gi].lanes.length; li++) this.laneIndex[this.m.groups[gi].lanes[li].id] = this.m.groups[gi].lanes[li];
    }
    return this.laneIndex[id];
  };

  // focus shows a finding's place: its evidence's extent (or a window
  // around it), and scrolls its lane to the upper third.
  Pane.prototype.focus = function (loc) {
    var full = this.max - this.min, lo = loc.lo !== undefined ? loc.lo : loc.a, hi = loc.hi !== undefined ? loc.hi : loc.a;
    var span = Math.max((hi - lo) * 1.6, full / 200, this.m.axis === 'order' ? 10e6 : 200);
    if (hi - lo < full / 200) span = Math.max(span, full / 20);
    var c = (lo + hi) / 2;
    this.setView(c - span / 2, c + span / 2);
    var ly = this.laneY[loc.l];
    if (ly) this.scroll.scrollTop = Math.max(0, ly.y - this.scroll.clientHeight / 3);
    this.request();
  };

  function describeItem(pane, ref) {
    var axis = pane.m.axis, it = ref.item, out = { kind: '', text: '', when: '', ev: [] };
    if (ref.series) {
      var sc = SERIES[ref.series.k] || [null, ref.series.n];
      out.kind = sc[1];
      if (ref.pt) {
        out.text = axis === 'ht' ? sc[1] + ' = ' + ref.pt[0] + ' (entry row ' + (ref.pt[1] + 1) + ')' : sc[1] + ' = ' + ref.pt[1];
        out.when = axis === 'ht' ? '' : fmtFull(axis, ref.pt[0]);
        out.ev = [ref.pt[2]];
      } else {
        out.text = ref.series.p.length + ' values; hover a point for its line';
      }
      return out;
    }
    out.kind = ref.kind || it.k;
    out.text = it.t;
    if (ref.band) out.when = fmtFull(axis, it.a) + '  →  ' + fmtFull(axis, it.b) + '  (' + fmtSpan(it.b - it.a) + (it.o ? ', still open at the end of the logs' : '') + ')';
    else out.when = fmtFull(axis, it.a);
    out.ev = it.e || [];
    return out;
  }

  function showTip(pane, ref, ev) {
    while (tip.firstChild) tip.removeChild(tip.firstChild);
    if (ref.finding !== undefined) {
      var f = M.findings[ref.finding];
      tip.appendChild(h('div', 'k', '#' + (ref.finding + 1) + '  ' + f.sev + '  ' + f.rule + '  (' + f.origin + ')'));
      tip.appendChild(h('div', 't', f.msg));
      for (var i = 0; i < f.e.length && i < 3; i++) {
        var fe = evText(f.e[i]);
        tip.appendChild(h('div', 'e', fe.pos + '  ' + (fe.text.length > 200 ? fe.text.slice(0, 200) + '…' : fe.text)));
      }
      if (f.facts && f.facts.length) tip.appendChild(h('div', 'w', f.facts.slice(0, 8).map(function (kv) { return kv[0] + '=' + kv[1]; }).join('  ')));
      tip.appendChild(h('div', 'w', 'click for all the evidence and the replayed state'));
    } else {
      var d = describeItem(pane, ref);
      tip.appendChild(h('div', 'k', d.kind));
      tip.appendChild(h('div', 't', d.text));
      if (d.when) tip.appendChild(h('div', 'w', d.when));
      if (d.ev.length) {
        var e = evText(d.ev[0]), t = e.text.length > 400 ? e.text.slice(0, 400) + '…' : e.text;
        tip.appendChild(h('div', 'e', e.pos + '  ' + t));
      }
    }
    tip.style.display = 'block';
    var x = ev.clientX + 14, y = ev.clientY + 14, r = tip.getBoundingClientRect();
    if (x + r.width > window.innerWidth - 8) x = Math.max(8, ev.clientX - r.width - 14);
    if (y + r.height > window.innerHeight - 8) y = Math.max(8, ev.clientY - r.height - 14);
    tip.style.left = x + 'px'; tip.style.top = y + 'px';
  }

  var detail = document.getElementById('detail-body');
  function clearDetail() { while (detail.firstChild) detail.removeChild(detail.firstChild); }
  // bySrc indexes the model's lines by source, in line order, for the
  // lines around a piece of evidence.
  var bySrc = null;
  function around(i) {
    if (!bySrc) {
      bySrc = {};
      for (var k = 0; k < M.lines.length; k++) (bySrc[M.lines[k].s] = bySrc[M.lines[k].s] || []).push(k);
      Object.keys(bySrc).forEach(function (src) { bySrc[src].sort(function (a, b) { return M.lines[a].l - M.lines[b].l; }); });
    }
    var l = M.lines[i], out = [];
    (bySrc[l.s] || []).forEach(function (k) { if (k !== i && Math.abs(M.lines[k].l - l.l) <= CONTEXT) out.push(k); });
    return out;
  }
  var CONTEXT = 3;
  function evLi(i, cls) {
    var e = evText(i), li = h('li', cls);
    li.appendChild(h('span', 'pos', e.pos));
    li.appendChild(h('span', 'text', e.text));
    return li;
  }
  function evidenceList(evs, context) {
    var ul = h('ul', 'evidence');
    for (var i = 0; i < evs.length; i++) {
      var li = evLi(evs[i], '');
      ul.appendChild(li);
      var near = context ? around(evs[i]) : [];
      if (near.length) {
        // The marker is drawn by the style sheet, so the line's text stays
        // the line's text.
        li.classList.add('has-ctx');
        li.title = 'click to show the ' + near.length + ' log line' + (near.length > 1 ? 's' : '') + ' around it (within ' + CONTEXT + ') that the report holds';
        (function (li, idx, near) {
          var shown = null;
          li.addEventListener('click', function (ev) {
            ev.stopPropagation();
            if (shown) { shown.forEach(function (n) { n.parentNode.removeChild(n); }); shown = null; li.classList.remove('open'); return; }
            shown = [];
            li.classList.add('open');
            var before = near.filter(function (k) { return M.lines[k].l < M.lines[idx].l; });
            var after = near.filter(function (k) { return M.lines[k].l > M.lines[idx].l; });
            before.forEach(function (k) { var n = evLi(k, 'context'); li.parentNode.insertBefore(n, li); shown.push(n); });
            var at = li.nextSibling;
            after.forEach(function (k) { var n = evLi(k, 'context'); li.parentNode.insertBefore(n, at); shown.push(n); });
          });
        })(li, evs[i], near);
      }
    }
    return ul;
  }
  // A fact holding a hybrid time (physical microseconds since 1970, 16
  // digits) is shown as the wall time it is, beside the raw value.
  function factText(v) {
    var m = /^(1[0-9]{15})(\.[0-9]+)?$/.exec(v);
    return m ? v + '  (' + day(+m[1]) + ' ' + clock(+m[1], 6) + ' UTC)' : v;
  }
  function showItem(pane, ref) {
    var d = describeItem(pane, ref);
    clearDetail();
    var t = h('div', 'dtitle'); t.appendChild(h('span', 'rule', d.kind)); detail.appendChild(t);
    detail.appendChild(h('div', 'meta', (ref.lane ? ref.lane.title + ' · ' : '') + d.when));
    detail.appendChild(h('div', 'msg', d.text));
    if (d.ev.length) { detail.appendChild(h('h3', '', 'Evidence')); detail.appendChild(evidenceList(d.ev)); }
  }

  function selectFinding(i, move) {
    state.finding = i;
    var f = M.findings[i];
    // The address names the finding, so it can be shared: report.html#f2.
    if (location.hash !== '#f' + (i + 1)) { try { history.replaceState(null, '', '#f' + (i + 1)); } catch (e) { /* a file: URL may refuse; the link still works typed */ } }
    var items = document.querySelectorAll('#findings li[data-finding]');
    for (var k = 0; k < items.length; k++) items[k].classList.toggle('selected', +items[k].getAttribute('data-finding') === i);
    clearDetail();
    var t = h('div', 'dtitle');
    var dot = h('span', 'sevdot ' + f.sev); t.appendChild(dot);
    t.appendChild(h('span', 'rule', f.rule));
    detail.appendChild(t);
    detail.appendChild(h('div', 'meta', f.sev + ' · ' + f.origin + ' · ' + f.subject));
    detail.appendChild(h('div', 'msg', f.msg));
    detail.appendChild(h('h3', '', 'Evidence'));
    detail.appendChild(evidenceList(f.e, true));
    if (f.facts && f.facts.length) {
      detail.appendChild(h('h3', '', 'Numbers'));
      var tb = h('table', 'facts');
      for (var j = 0; j < f.facts.length; j++) {
        var tr = h('tr'); tr.appendChild(h('td', '', f.facts[j][0])); tr.appendChild(h('td', '', factText(f.facts[j][1]))); tb.appendChild(tr);
      }
      detail.appendChild(tb);
    }
    if (f.state && f.state.length) {
      detail.appendChild(h('h3', '', 'Replayed state just before'));
      var ul = h('ul', 'state');
      for (var k2 = 0; k2 < f.state.length; k2++) ul.appendChild(h('li', '', f.state[k2]));
      detail.appendChild(ul);
    }
    if (!f.locs.length) detail.appendChild(h('div', 'hint', 'None of its evidence lines is drawn on the timeline.'));
    if (move && state.filter && f.locs.some(function (l) { return !panes[l.p].laneY[l.l]; })) {
      // The finding's lane is filtered out: showing it wins.
      var box = document.getElementById('filter');
      box.value = ''; state.filter = '';
      panes.forEach(function (pv) { pv.layout(); });
    }
    if (move) for (var p = 0; p < f.locs.length; p++) panes[f.locs[p].p].focus(f.locs[p]);
    for (var q = 0; q < panes.length; q++) panes[q].request();
  }

  function buildSide() {
    var ul = document.getElementById('findings');
    if (!M.findings.length) { ul.appendChild(h('li', 'empty', 'No findings: no invariant broke in these logs.')); return; }
    M.findings.forEach(function (f, i) {
      var li = h('li');
      li.setAttribute('data-finding', i);
      li.id = 'f' + (i + 1);
      var r = h('div', 'rule'); r.appendChild(h('span', 'num ' + f.sev, String(i + 1))); r.appendChild(document.createTextNode(f.rule + '  (' + f.origin + ')'));
      li.appendChild(r);
      li.appendChild(h('div', 'subj', f.subject));
      li.appendChild(h('div', 'msg', f.msg));
      if (f.e.length) { var e = evText(f.e[0]); li.appendChild(h('div', 'where', e.pos)); }
      li.tabIndex = 0;
      li.addEventListener('click', function () { selectFinding(i, true); });
      li.addEventListener('keydown', function (ev) {
        if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); selectFinding(i, true); }
        else if (ev.key === 'ArrowDown' && li.nextSibling) { ev.preventDefault(); li.nextSibling.focus(); }
        else if (ev.key === 'ArrowUp' && li.previousSibling) { ev.preventDefault(); li.previousSibling.focus(); }
      });
      ul.appendChild(li);
    });
  }

  function buildLegend() {
    var lg = document.getElementById('legend'), used = { b: {}, m: {}, s: {} };
    M.panes.forEach(function (p) {
      (p.spans || []).forEach(function (b) { used.b[b.k] = 1; });
      p.groups.forEach(function (g) {
        g.lanes.forEach(function (l) {
          (l.bands || []).forEach(function (b) { used.b[b.k] = 1; });
          (l.marks || []).forEach(function (m) { used.m[m.k] = 1; });
          (l.series || []).forEach(function (x) { used.s[x.k] = 1; });
        });
      });
    });
    function row(draw, label) {
      var d = h('div'), sv = s('svg', { width: 18, height: 12 });
      draw(sv); d.appendChild(sv); d.appendChild(document.createTextNode(label)); lg.appendChild(d);
    }
    Object.keys(BAND).forEach(function (k) { if (used.b[k]) row(function (sv) { s('rect', { x: 1, y: 2, width: 16, height: 8, rx: 2, fill: BAND[k][0], stroke: k === 'disruption' ? '#d1242f' : 'none' }, sv); }, BAND[k][1]); });
    Object.keys(SERIES).forEach(function (k) { if (used.s[k]) row(function (sv) { var p = s('path', { d: 'M1 10H8V3H17', fill: 'none', stroke: SERIES[k][0], 'stroke-width': 1.6 }, sv); if (SERIES[k][2]) p.setAttribute('stroke-dasharray', SERIES[k][2]); }, SERIES[k][1]); });
    Object.keys(MARK).forEach(function (k) { if (used.m[k]) row(function (sv) { Pane.prototype.drawMark.call(null, sv, { k: k }, 9, 6, -1); }, MARK[k][3]); });
    if (M.findings.length) row(function (sv) { s('circle', { cx: 9, cy: 6, r: 5, fill: 'none', stroke: SEV.error, 'stroke-width': 2 }, sv); }, 'finding (click it)');
  }

  // frameFindings makes the first view the findings' time span on each
  // pane, with some room around it, rather than the whole log.
  function frameFindings() {
    panes.forEach(function (pv, pi) {
      var lo = Infinity, hi = -Infinity;
      M.findings.forEach(function (f) {
        f.locs.forEach(function (l) { if (l.p === pi) { lo = Math.min(lo, l.lo); hi = Math.max(hi, l.hi); } });
      });
      if (lo > hi) return;
      var pad = Math.max((hi - lo) * 0.25, pv.m.axis === 'order' ? 5e6 : 250000);
      if (hi - lo + 2 * pad < pv.max - pv.min) pv.setView(lo - pad, hi + pad);
    });
  }
  function openHash() {
    var m = /^#f([0-9]+)$/.exec(location.hash);
    if (m && +m[1] >= 1 && +m[1] <= M.findings.length) {
      selectFinding(+m[1] - 1, true);
      var li = document.getElementById('f' + m[1]);
      if (li && li.scrollIntoView) li.scrollIntoView({ block: 'nearest' });
    }
  }

  function init() {
    var sev = M.counts || {};
    var badges = document.getElementById('badges');
    ['error', 'warning', 'note'].forEach(function (k) { if (sev[k]) badges.appendChild(h('span', 'badge ' + k, sev[k] + ' ' + k + (sev[k] > 1 ? 's' : ''))); });
    if (!M.findings.length) badges.appendChild(h('span', 'badge none', 'no findings'));
    if (M.yearGuessed) { var yb = h('span', 'badge year', 'year assumed'); yb.title = M.year; badges.appendChild(yb); }
    document.getElementById('summary').textContent = M.title + (M.sources.length ? ' · ' + M.sources.join(', ') : '');
    var notes = (M.notes || []).slice();
    if (M.year) notes.unshift('dates are not all as printed: ' + M.year);
    if (notes.length) document.getElementById('notes').textContent = notes.join('; ');
    if (M.diags && M.diags.length) {
      var dg = document.getElementById('diags');
      dg.appendChild(h('summary', '', M.diags.length + ' diagnostic' + (M.diags.length > 1 ? 's' : '') + ': what could not be read in full'));
      var dl = h('ul', 'diaglist');
      M.diags.forEach(function (d) { dl.appendChild(h('li', '', d)); });
      dg.appendChild(dl);
      dg.hidden = false;
      dg.open = M.diags.length <= 5;
    }
    if (M.recognised && M.recognised.length) {
      var sg = document.getElementById('sources');
      sg.appendChild(h('summary', '', M.recognised.length + ' source' + (M.recognised.length > 1 ? 's' : '') + ': how much was recognised'));
      var sl = h('ul', 'diaglist');
      M.recognised.forEach(function (d) { sl.appendChild(h('li', '', d)); });
      sg.appendChild(sl);
      sg.hidden = false;
    }
    if (M.footer) document.getElementById('footer').textContent = M.footer;
    var host = document.getElementById('panes');
    M.panes.forEach(function (p, i) {
      panes.push(new Pane(p, i, host));
    });
    buildSide();
    buildLegend();
    frameFindings();
    var filter = document.getElementById('filter');
    filter.addEventListener('input', function () {
      state.filter = filter.value.trim().toLowerCase();
      panes.forEach(function (p) { p.layout(); });
    });
    window.addEventListener('resize', function () { panes.forEach(function (p) { p.request(); }); });
    openHash();
    window.addEventListener('hashchange', openHash);
    window.__timeline = {
      ready: true,
      selected: function () { return state.finding; },
      view: function (i) { return [panes[i].t0, panes[i].t1]; },
      panes: panes.length,
      drawn: function () { return panes.map(function (p) { return p.drawn || 0; }); },
      select: function (i) { selectFinding(i, true); }
    };
  }
  init();
})();
