// crdlab's live view: the component diagram, one panel per CRD and the
// event list, fed by two endpoints of `crdlab serve`:
//
//   /debug/crdlab/events  Server-Sent Events, batches of trace events
//                         (read with fetch, so that a bearer token can go
//                         along; EventSource cannot send headers)
//   /debug/crdlab/state   a JSON snapshot: revision, workqueue depths,
//                         informer cache sizes, CRDs and their conditions
//                         (polled every 500 ms)
//
// Plain JavaScript, no framework, no build step, nothing loaded from
// elsewhere. To stay fast at 1,000 events a second the stream is parsed a
// batch at a time into memory, and the page is drawn at most once per
// animation frame: new rows are added in one go, the list keeps at most
// MAX_ROWS rows (FAST_ROWS when busy) and at most MAX_DOTS dots move at
// once.
'use strict';

(function () {
  // ---- constants -------------------------------------------------------

  // The components of trace.Components, in travel order, and "client",
  // which sends the requests the handler serves.
  const COMPONENTS = ['handler', 'registry', 'storage', 'watch', 'reflector', 'deltafifo',
    'informer', 'crdhandler', 'workqueue', 'controller'];
  // The user agents of the server's own loopback clients: the informers
  // and controllers inside `crdlab serve` (the apiextensions ones, and the
  // namespace controller and garbage collector). A write with one is a
  // controller writing back.
  const LOOPBACK_UA = /crdlab-(apiextensions|kube)-controllers/;
  // A request event's message starts with its verb, the RequestInfo verb
  // ("UPDATE /apis/…") or the HTTP method: these are writes.
  const WRITE = /^(CREATE|UPDATE|PATCH|DELETE|DELETECOLLECTION|POST|PUT)\b/i;

  const MAX_ROWS = 500; // rows in the event list's DOM
  // FAST_ROWS caps the list instead while more than FAST_RATE events a
  // second arrive: each redraw of the list repaints all its rows, and at
  // such rates nobody reads row 101 before it is pushed out (pause shows
  // MAX_ROWS again).
  const FAST_ROWS = 100;
  const FAST_RATE = 200;
  const MAX_BUFFER = 5000; // events kept in memory (for filters and pause)
  const MAX_KEYS = 5000; // keys whose path is remembered
  const MAX_DOTS = 60; // dots moving at once
  const MAX_DOTS_PER_EDGE = 8;
  let DOT_MS = 650; // one dot's trip along an edge (see SPEEDS)
  let FLASH_MS = 450; // a box stays lit this long after its event
  const LIST_MS = 100; // the list is redrawn at most this often,
  const FAST_LIST_MS = 250; // or this often above FAST_RATE
  const EDGE_WINDOW_MS = 5000; // a predecessor shown this recently for the same key draws a dot
  // Slow motion: a write crosses all the components in a few milliseconds,
  // too fast to follow. The diagram replays each key's events STEP_MS
  // apart whenever the component changes, but never more than MAX_LAG_MS
  // behind (later events of the key then all show at that moment), with
  // at most MAX_QUEUED waiting.
  let STEP_MS = 90;
  let MAX_LAG_MS = 6000;
  // SPEEDS are the choices of the "diagram" menu: a teacher slows the
  // replay down to talk through each step. The list is never delayed.
  const SPEEDS = {
    normal: { step: 90, dot: 650, flash: 450, lag: 6000 },
    slow: { step: 400, dot: 1200, flash: 900, lag: 20000 },
    'very slow': { step: 1000, dot: 2000, flash: 1500, lag: 60000 },
  };
  function setSpeed(name) {
    const sp = SPEEDS[name] || SPEEDS.normal;
    STEP_MS = sp.step;
    DOT_MS = sp.dot;
    FLASH_MS = sp.flash;
    MAX_LAG_MS = sp.lag;
    document.body.dataset.speed = SPEEDS[name] ? name : 'normal';
  }
  const MAX_QUEUED = 2000;
  const STATE_MS = 500; // state poll interval
  const GONE_MS = 4000; // a deleted CRD's panel shows "gone" this long
  const RETRY_MS = [500, 1000, 2000, 4000]; // reconnect backoff
  const OFF_RETRY_MS = 5000; // retry when tracing is off or the token is refused

  // The diagram: a box per component, at the centre (x, y) of a 1110×450
  // viewBox. The top row is the apiserver's write path, the bottom row the
  // control loop (DESIGN.md, "Data flow").
  const BOX_W = 168;
  const BOX_H = 86;
  const NODES = {
    client: { x: 98, y: 85, title: 'client', sub: 'kubectl · curl' },
    handler: { x: 326, y: 85, title: 'handler', sub: 'filters · REST verbs' },
    registry: { x: 554, y: 85, title: 'registry', sub: 'REST store' },
    storage: { x: 782, y: 85, title: 'storage', sub: 'bbolt · revision' },
    watch: { x: 1010, y: 85, title: 'watch', sub: 'fan-out' },
    reflector: { x: 1010, y: 365, title: 'reflector', sub: 'list + watch' },
    deltafifo: { x: 782, y: 365, title: 'deltafifo', sub: 'queue of deltas' },
    informer: { x: 554, y: 365, title: 'informer', sub: 'cache · handlers' },
    crdhandler: { x: 554, y: 225, title: 'crdhandler', sub: 'serves the CRs' },
    workqueue: { x: 326, y: 365, title: 'workqueue', sub: 'dedup · rate limit' },
    controller: { x: 98, y: 365, title: 'controller', sub: 'sync one key' },
  };
  // Edges [from, to, label]: dots move along these.
  const EDGES = [
    ['client', 'handler', 'HTTP'],
    ['handler', 'registry', ''],
    ['registry', 'storage', ''],
    ['storage', 'watch', 'commit'],
    ['watch', 'reflector', 'watch stream'],
    ['reflector', 'deltafifo', 'deltas'],
    ['deltafifo', 'informer', 'Pop'],
    ['informer', 'crdhandler', ''],
    ['informer', 'workqueue', 'Add'],
    ['workqueue', 'controller', 'Get'],
    ['controller', 'handler', 'status write'],
  ];

  // ---- state -----------------------------------------------------------

  // window.crdlab is for tests and the curious: how far the page got.
  const app = {
    connection: 'connecting', // connecting | connected | reconnecting | tracing-off | unauthorized
    events: 0, // events received
    lastSeq: 0, // seq of the newest event received
    helloSeq: 0, // the server's seq when the stream (re)started: events up to it are replay
    boot: '', // the server's start, if its hello says (started or boot)
    dropped: 0, // events the server dropped for this page
    rate: 0, // events per second, last second
    stateUpdates: 0, // /debug/crdlab/state answers applied
    upstreamURL: upstreamURL,
  };
  window.crdlab = app;

  const buffer = []; // the last MAX_BUFFER events, oldest first
  let pending = []; // events not yet drawn in the list, oldest first
  let pausedNew = 0; // events received while paused
  let rebuild = false; // redraw the whole list from buffer
  const keys = new Map(); // key → {comps: [component], seen: {component: ms}, steps: {component: [step]}, anim: {edge: ms}, rv}
  let selectedKey = '';
  let pathDirty = false;
  const shownComponents = new Set(COMPONENTS);
  let keyFilter = '';
  let paused = false;

  const flashes = {}; // component → ms of its last live event
  const lit = {}; // component → whether its box has the flash class now
  const lastStep = {}; // component → its last live event
  const numbers = {}; // component → live number text from state
  const boxText = {}; // component → text drawn in the box's live line
  const dots = []; // the moving dots: {geom, start, el}
  let queued = []; // live events waiting for their turn in the diagram: {e, k, at}
  const dotPool = []; // circles of finished dots, hidden, for reuse
  const edgeGeom = {}; // "from>to" → {points: [[x,y]…], count, path}

  let frameRequested = false;
  let lastList = 0; // when the list was last drawn
  let shownTotal = 0; // app.events as the header shows it
  let rateCount = 0;
  let token = sessionStorage.getItem('crdlab-token') || '';
  let stream = null; // AbortController of the current events request
  let retry = 0;
  let streamTimer = 0;
  let stateTimer = 0;
  let stateInFlight = false;
  let stateAgain = false;

  const $ = (sel) => document.querySelector(sel);
  const el = {};

  // ---- helpers ---------------------------------------------------------

  // upstreamURL is trace.UpstreamURL: a Go qualified name to its
  // pkg.go.dev page, "k8s.io/client-go/tools/cache.(*DeltaFIFO).Pop" →
  // pkg.go.dev/k8s.io/client-go/tools/cache#DeltaFIFO.Pop.
  function upstreamURL(upstream) {
    if (!upstream) return '';
    const slash = upstream.lastIndexOf('/');
    const dot = upstream.indexOf('.', slash + 1);
    if (dot < 0) return 'https://pkg.go.dev/' + upstream;
    const pkg = upstream.slice(0, dot);
    const sym = upstream.slice(dot + 1).split('(*').join('').split('(').join('').split(')').join('');
    return 'https://pkg.go.dev/' + pkg + '#' + sym;
  }

  // shortUpstream drops the package path: "cache.(*DeltaFIFO).Pop".
  function shortUpstream(upstream) {
    return upstream.slice(upstream.lastIndexOf('/') + 1);
  }

  function formatDuration(ns) {
    if (!ns) return '';
    if (ns < 1e3) return ns + ' ns';
    if (ns < 1e6) return (ns / 1e3).toFixed(ns < 1e4 ? 1 : 0) + ' µs';
    if (ns < 1e9) return (ns / 1e6).toFixed(ns < 1e7 ? 2 : 1) + ' ms';
    return (ns / 1e9).toFixed(2) + ' s';
  }

  function pad(n, w) {
    return String(n).padStart(w, '0');
  }

  function formatTime(iso) {
    const d = new Date(iso);
    if (isNaN(d)) return iso || '';
    return pad(d.getHours(), 2) + ':' + pad(d.getMinutes(), 2) + ':' + pad(d.getSeconds(), 2) + '.' + pad(d.getMilliseconds(), 3);
  }

  function truncate(s, n) {
    return s.length > n ? s.slice(0, n - 1) + '…' : s;
  }

  function make(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  const SVG = 'http://www.w3.org/2000/svg'; // a namespace name, never fetched
  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    return e;
  }

  function authHeaders() {
    return token ? { Authorization: 'Bearer ' + token } : {};
  }

  // Relative to /ui/, so that the page also works behind a path prefix.
  function endpoint(name) {
    return new URL('../debug/crdlab/' + name, location.href).toString();
  }

  function requestFrame() {
    if (!frameRequested) {
      frameRequested = true;
      requestAnimationFrame(frame);
    }
  }

  // ---- the diagram -----------------------------------------------------

  function drawDiagram() {
    const root = el.diagram;
    const defs = svg('defs', {});
    const marker = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '9', refY: '5', markerWidth: '7', markerHeight: '7', orient: 'auto-start-reverse' });
    marker.appendChild(svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }));
    defs.appendChild(marker);
    root.appendChild(defs);

    // Two regions, as in DESIGN.md: the apiserver and the control loop.
    root.appendChild(svg('rect', { x: 4, y: 6, width: 1102, height: 152, rx: 10, class: 'region' }));
    root.appendChild(svg('rect', { x: 4, y: 288, width: 1102, height: 156, rx: 10, class: 'region' }));
    const r1 = svg('text', { x: 20, y: 30, class: 'region-label' });
    r1.textContent = 'kube-apiserver: HTTP → storage';
    root.appendChild(r1);
    const r2 = svg('text', { x: 20, y: 436, class: 'region-label' });
    r2.textContent = 'control loop: informer → workqueue → controllers (client-go, over loopback)';
    root.appendChild(r2);

    const edgeLayer = svg('g', { class: 'edges' });
    const boxLayer = svg('g', { class: 'boxes' });
    const dotLayer = svg('g', { class: 'dots' });
    root.appendChild(edgeLayer);
    root.appendChild(boxLayer);
    root.appendChild(dotLayer);
    el.dotLayer = dotLayer;

    for (const [from, to, label] of EDGES) {
      const d = edgePath(from, to);
      const p = svg('path', { d: d, class: 'edge', 'data-from': from, 'data-to': to, 'marker-end': 'url(#arrow)' });
      edgeLayer.appendChild(p);
      const len = p.getTotalLength();
      const points = [];
      const n = 48;
      for (let i = 0; i <= n; i++) {
        const pt = p.getPointAtLength((len * i) / n);
        points.push([pt.x, pt.y]);
      }
      edgeGeom[from + '>' + to] = { points: points, count: 0, path: p };
      if (label) {
        const mid = p.getPointAtLength(len / 2);
        let x = mid.x;
        let y = mid.y - 10;
        let anchor = 'middle';
        if (from === 'watch') { x -= 12; anchor = 'end'; } // a vertical edge: beside it
        if (from === 'controller') { x -= 20; y += 4; anchor = 'end'; }
        const t = svg('text', { x: x, y: y, 'text-anchor': anchor, class: 'edge-label' });
        t.textContent = label;
        edgeLayer.appendChild(t);
      }
    }

    el.boxes = {};
    for (const name in NODES) {
      const n = NODES[name];
      const g = svg('g', { class: 'box c-' + name, 'data-component': name, tabindex: name === 'client' ? '-1' : '0', role: name === 'client' ? 'img' : 'button' });
      const title = svg('title', {});
      title.textContent = name === 'client'
        ? 'client: whoever sends requests (kubectl, curl, client-go); not traced itself'
        : name + ': click to list only its events';
      g.appendChild(title);
      g.appendChild(svg('rect', { x: n.x - BOX_W / 2, y: n.y - BOX_H / 2, width: BOX_W, height: BOX_H, rx: 9, class: 'box-bg' }));
      g.appendChild(svg('rect', { x: n.x - BOX_W / 2, y: n.y - BOX_H / 2, width: 10, height: BOX_H, rx: 3, class: 'box-band' }));
      const t = svg('text', { x: n.x + 4, y: n.y - 14, class: 'box-title' });
      t.textContent = n.title;
      const s = svg('text', { x: n.x + 4, y: n.y + 9, class: 'box-sub' });
      s.textContent = n.sub;
      const live = svg('text', { x: n.x + 4, y: n.y + 32, class: 'box-live' });
      g.appendChild(t);
      g.appendChild(s);
      g.appendChild(live);
      boxLayer.appendChild(g);
      el.boxes[name] = { g: g, live: live };
      if (name !== 'client') {
        g.addEventListener('click', () => soloComponent(name));
        g.addEventListener('keydown', (ev) => {
          if (ev.key === 'Enter' || ev.key === ' ') {
            ev.preventDefault();
            soloComponent(name);
          }
        });
      }
    }
  }

  // edgePath is the SVG path from one box's side to the next.
  function edgePath(from, to) {
    const a = NODES[from];
    const b = NODES[to];
    const hw = BOX_W / 2;
    const hh = BOX_H / 2;
    if (from === 'controller' && to === 'handler') {
      // Up from the controller, into the handler's bottom.
      return `M${a.x + 30},${a.y - hh} C${a.x + 30},${a.y - 150} ${b.x - 30},${b.y + 130} ${b.x - 30},${b.y + hh + 2}`;
    }
    if (a.y === b.y) {
      const dir = b.x > a.x ? 1 : -1;
      return `M${a.x + dir * hw},${a.y} L${b.x - dir * (hw + 2)},${b.y}`;
    }
    if (a.x === b.x) {
      const dir = b.y > a.y ? 1 : -1;
      return `M${a.x},${a.y + dir * hh} L${b.x},${b.y - dir * (hh + 2)}`;
    }
    return `M${a.x},${a.y} L${b.x},${b.y}`;
  }

  function addDot(from, to) {
    const geom = edgeGeom[from + '>' + to];
    if (!geom || dots.length >= MAX_DOTS || geom.count >= MAX_DOTS_PER_EDGE) return;
    let c = dotPool.pop();
    if (!c) {
      c = svg('circle', { r: 9 });
      el.dotLayer.appendChild(c);
    }
    c.setAttribute('class', 'dot c-' + to);
    c.style.display = '';
    geom.count++;
    dots.push({ geom: geom, start: performance.now(), el: c });
    requestFrame();
  }

  // schedule queues e's animation: at once, or STEP_MS after the previous
  // component of the same key (see STEP_MS).
  function schedule(e, k, now) {
    let at = now;
    if (k && k.at) {
      at = Math.max(now, k.atComp === e.component ? k.at : k.at + STEP_MS);
      at = Math.min(at, now + MAX_LAG_MS);
    }
    if (k) {
      k.at = at;
      k.atComp = e.component;
    }
    if (at <= now || queued.length >= MAX_QUEUED) animate(e, k, now);
    else queued.push({ e: e, k: k, at: at });
  }

  // animate flashes the event's box and starts dots along the edges into
  // it from components that showed the same key just before.
  function animate(e, k, now) {
    const c = e.component;
    flashes[c] = now;
    lastStep[c] = e;
    if (k) k.shown[c] = now;
    if (c === 'handler') {
      if (e.step === 'request') {
        if (!LOOPBACK_UA.test(e.actor || '')) {
          flashes.client = now;
          addDot('client', 'handler');
        }
        else if (WRITE.test(e.message || '')) addDot('controller', 'handler');
      }
      return;
    }
    if (!k) return;
    for (const [from, to] of EDGES) {
      if (to !== c || from === 'client') continue;
      const seen = k.shown[from];
      if (seen === undefined || now - seen > EDGE_WINDOW_MS) continue;
      const id = from + '>' + to;
      if (k.anim[id] !== undefined && now - k.anim[id] < 1000) continue; // one dot per edge per key per second
      k.anim[id] = now;
      addDot(from, to);
    }
  }

  // ---- events ----------------------------------------------------------

  function ingest(batch) {
    const now = performance.now();
    let crdTouched = false;
    for (const e of batch) {
      if (!e || typeof e.seq !== 'number' || e.seq <= app.lastSeq) continue; // replay overlap
      app.lastSeq = e.seq;
      app.events++;
      rateCount++;
      buffer.push(e);
      if (paused) pausedNew++;
      else pending.push(e);

      let k = null;
      if (e.key) {
        k = keys.get(e.key);
        if (!k) {
          // comps, seen, steps: the key's path. shown, anim, at, atComp:
          // its slow-motion replay in the diagram.
          k = { comps: [], seen: {}, steps: {}, rv: '', shown: {}, anim: {}, at: 0, atComp: '' };
          keys.set(e.key, k);
          if (keys.size > MAX_KEYS) keys.delete(keys.keys().next().value);
        }
      }
      const live = e.seq > app.helloSeq;
      if (live && COMPONENTS.indexOf(e.component) >= 0) schedule(e, k, now);
      if (k) {
        const c = e.component;
        if (k.seen[c] === undefined) {
          // Every object's story starts with a request to the handler, but
          // the handler learns the key of a create only when it answers,
          // after registry and storage: put it first.
          if (c === 'handler') k.comps.unshift(c);
          else k.comps.push(c);
          k.steps[c] = [];
        }
        k.seen[c] = now;
        if (k.steps[c].indexOf(e.step) < 0 && k.steps[c].length < 8) k.steps[c].push(e.step);
        if (e.resourceVersion) k.rv = e.resourceVersion;
        if (e.key === selectedKey) pathDirty = true;
      }
      if (live && (e.resource || '').indexOf('customresourcedefinitions') === 0) crdTouched = true;
    }
    if (buffer.length > MAX_BUFFER + 500) buffer.splice(0, buffer.length - MAX_BUFFER);
    if (pending.length > MAX_ROWS * 2) pending = pending.slice(pending.length - MAX_ROWS);
    if (crdTouched) pollStateSoon();
    requestFrame();
  }

  function matches(e) {
    if (!shownComponents.has(e.component)) return false;
    if (keyFilter && (e.key || '').toLowerCase().indexOf(keyFilter) < 0) return false;
    return true;
  }

  function makeRow(e) {
    const tr = make('tr', e.error ? 'err' : '');
    if (e.key && e.key === selectedKey) tr.classList.add('sel');
    tr.appendChild(make('td', 'time', formatTime(e.time)));
    const comp = make('td');
    comp.appendChild(make('span', 'tag c-' + e.component, e.component));
    tr.appendChild(comp);
    tr.appendChild(make('td', 'step', e.step));
    tr.appendChild(make('td', 'actor', truncate(e.actor || '', 32))).title = e.actor || '';
    const key = make('td', 'keycell');
    if (e.key) {
      const b = make('button', 'key', e.key);
      b.type = 'button';
      b.dataset.key = e.key;
      b.title = (e.resource ? e.resource + ' ' : '') + e.key + ': show its path';
      key.appendChild(b);
    }
    tr.appendChild(key);
    tr.appendChild(make('td', 'rv', e.resourceVersion || ''));
    tr.appendChild(make('td', 'dur', formatDuration(e.duration)));
    const msg = make('td', 'msg', e.message || '');
    if (e.error) msg.appendChild(make('span', 'error', ' error: ' + e.error));
    tr.appendChild(msg);
    const up = make('td', 'upstream');
    if (e.upstream) {
      const a = make('a', '', shortUpstream(e.upstream));
      a.href = upstreamURL(e.upstream);
      a.target = '_blank';
      a.rel = 'noopener noreferrer';
      a.title = e.upstream + ' on pkg.go.dev';
      up.appendChild(a);
    }
    tr.appendChild(up);
    tr.dataset.seq = e.seq;
    tr.dataset.component = e.component;
    if (e.key) tr.dataset.key = e.key;
    return tr;
  }

  function renderRows() {
    const tbody = el.rows;
    if (paused) {
      el.pause.textContent = pausedNew ? `resume (${pausedNew} new)` : 'resume';
      return;
    }
    let source = pending;
    if (rebuild) {
      source = buffer;
      rebuild = false;
      tbody.textContent = '';
    } else if (!pending.length) {
      return;
    }
    const cap = paused || app.rate < FAST_RATE ? MAX_ROWS : FAST_ROWS;
    const frag = document.createDocumentFragment();
    let n = 0;
    for (let i = source.length - 1; i >= 0 && n < cap; i--) {
      if (matches(source[i])) {
        frag.appendChild(makeRow(source[i]));
        n++;
      }
    }
    pending = [];
    tbody.insertBefore(frag, tbody.firstChild);
    while (tbody.childElementCount > cap) tbody.lastElementChild.remove();
    el.shown.textContent = tbody.childElementCount + ' shown' + (tbody.childElementCount >= cap ? ' (the newest)' : '');
  }

  // ---- the path of one key ---------------------------------------------

  function selectKey(key) {
    selectedKey = key;
    pathDirty = true;
    rebuild = true; // re-mark the rows of the selected key
    requestFrame();
  }

  function renderPath() {
    pathDirty = false;
    const ol = el.path;
    ol.dataset.key = selectedKey;
    el.pathKey.textContent = selectedKey || '—';
    el.pathFilter.hidden = !selectedKey;
    ol.textContent = '';
    const k = selectedKey ? keys.get(selectedKey) : null;
    el.pathEmpty.hidden = !!selectedKey;
    const on = new Set(k ? k.comps : []);
    for (const name of COMPONENTS) el.boxes[name].g.classList.toggle('onpath', on.has(name));
    if (!k) {
      if (selectedKey) ol.appendChild(make('li', 'none', 'no events for this key yet'));
      return;
    }
    for (const c of k.comps) {
      const li = make('li');
      li.dataset.component = c;
      li.appendChild(make('span', 'tag c-' + c, c));
      li.appendChild(make('span', 'steps', k.steps[c].join(', ')));
      ol.appendChild(li);
    }
  }

  // ---- filters -----------------------------------------------------------

  function drawFilters() {
    const box = el.componentFilter;
    const all = make('button', 'all', 'all');
    all.type = 'button';
    all.addEventListener('click', () => setShown(COMPONENTS));
    box.appendChild(all);
    for (const c of COMPONENTS) {
      const b = make('button', 'tag c-' + c, c);
      b.type = 'button';
      b.dataset.component = c;
      b.setAttribute('aria-pressed', 'true');
      b.title = 'show or hide ' + c + ' events';
      b.addEventListener('click', () => {
        const next = new Set(shownComponents);
        if (next.has(c)) next.delete(c);
        else next.add(c);
        setShown([...next]);
      });
      box.appendChild(b);
    }
  }

  // soloComponent lists only one component's events; again, all of them.
  function soloComponent(c) {
    if (shownComponents.size === 1 && shownComponents.has(c)) setShown(COMPONENTS);
    else setShown([c]);
  }

  function setShown(list) {
    shownComponents.clear();
    for (const c of list) shownComponents.add(c);
    for (const b of el.componentFilter.querySelectorAll('button[data-component]')) {
      b.setAttribute('aria-pressed', String(shownComponents.has(b.dataset.component)));
    }
    const solo = shownComponents.size === 1 ? [...shownComponents][0] : '';
    for (const name of COMPONENTS) el.boxes[name].g.classList.toggle('solo', name === solo);
    document.body.dataset.filter = shownComponents.size === COMPONENTS.length ? '' : [...shownComponents].join(',');
    rebuild = true;
    requestFrame();
  }

  // ---- one frame -----------------------------------------------------------

  function frame(now) {
    frameRequested = false;
    let again = false;
    // The list changes at most every LIST_MS (FAST_LIST_MS when busy):
    // each redraw repaints its rows, and nobody reads faster than that.
    if (rebuild || now - lastList >= (app.rate < FAST_RATE ? LIST_MS : FAST_LIST_MS)) {
      if (rebuild || pending.length || paused) lastList = now;
      renderRows();
    } else if (pending.length) {
      again = true;
    }
    if (pathDirty) renderPath();

    if (queued.length) {
      const later = [];
      for (const q of queued) {
        if (q.at <= now) animate(q.e, q.k, now);
        else later.push(q);
      }
      queued = later;
      if (queued.length) again = true;
    }
    if (shownTotal !== app.events) {
      shownTotal = app.events;
      el.total.textContent = app.events + ' events';
    }

    for (const name in NODES) {
      const on = flashes[name] !== undefined && now - flashes[name] < FLASH_MS;
      if (on !== !!lit[name]) {
        lit[name] = on;
        el.boxes[name].g.classList.toggle('flash', on);
      }
      if (on) again = true;
      // The live line: the box's number (cache size, queue depth) and the
      // step it did last.
      const last = lastStep[name];
      let text = numbers[name] || '';
      if (last) text += (text ? ' · ' : '') + last.step + (!text && last.resourceVersion ? ' rv ' + last.resourceVersion : '');
      text = truncate(text, 18);
      if (text !== boxText[name]) {
        boxText[name] = text;
        el.boxes[name].live.textContent = text;
      }
    }
    for (let i = dots.length - 1; i >= 0; i--) {
      const d = dots[i];
      const t = (now - d.start) / DOT_MS;
      if (t >= 1) {
        d.el.style.display = 'none';
        dotPool.push(d.el);
        d.geom.count--;
        dots.splice(i, 1);
        continue;
      }
      const pts = d.geom.points;
      const f = Math.max(0, t) * (pts.length - 1);
      const j = Math.floor(f);
      const r = f - j;
      const a = pts[j];
      const b = pts[Math.min(j + 1, pts.length - 1)];
      d.el.setAttribute('cx', a[0] + (b[0] - a[0]) * r);
      d.el.setAttribute('cy', a[1] + (b[1] - a[1]) * r);
      again = true;
    }
    if (again) requestFrame();
  }

  // ---- the event stream --------------------------------------------------

  function setConnection(state, detail) {
    app.connection = state;
    document.body.dataset.connection = state;
    const text = {
      connecting: 'connecting…',
      connected: '● live',
      reconnecting: 'reconnecting…',
      'tracing-off': 'tracing is off — restart with crdlab serve --trace',
      unauthorized: 'not allowed — paste a token',
    }[state];
    el.conn.textContent = text;
    el.conn.className = 'pill ' + state;
    el.conn.title = detail || '';
    if (state === 'tracing-off') {
      el.notice.hidden = false;
      el.notice.textContent = 'Tracing is off — restart with crdlab serve --trace to see events move. ' +
        'The CRD panels and the numbers below still update.';
    } else if (state === 'unauthorized') {
      el.notice.hidden = false;
      el.notice.textContent = 'The server wants a token (it runs with --token-file): paste one in the token field above.';
    } else {
      el.notice.hidden = true;
    }
  }

  function scheduleConnect(ms) {
    clearTimeout(streamTimer);
    streamTimer = setTimeout(connect, ms);
  }

  function reconnectNow() {
    if (stream) stream.abort();
    stream = null;
    retry = 0;
    scheduleConnect(0);
  }

  async function connect() {
    if (stream) stream.abort();
    const ctrl = new AbortController();
    stream = ctrl;
    if (app.connection !== 'tracing-off' && app.connection !== 'unauthorized') {
      setConnection(app.lastSeq || retry ? 'reconnecting' : 'connecting');
    }
    const since = app.lastSeq;
    let next = RETRY_MS[Math.min(retry, RETRY_MS.length - 1)];
    try {
      const resp = await fetch(endpoint('events') + '?since=' + since, {
        headers: authHeaders(), signal: ctrl.signal, cache: 'no-store',
      });
      if (resp.status === 404) {
        const body = await resp.text();
        if (/tracing is off/i.test(body)) {
          let msg = body;
          try { msg = JSON.parse(body).message || body; } catch (_) { /* not JSON */ }
          setConnection('tracing-off', msg);
        } else {
          setConnection('reconnecting', 'HTTP 404: this server has no /debug/crdlab/events');
        }
        next = OFF_RETRY_MS;
      } else if (resp.status === 401 || resp.status === 403) {
        setConnection('unauthorized', 'HTTP ' + resp.status);
        next = OFF_RETRY_MS;
      } else if (!resp.ok || !resp.body) {
        setConnection('reconnecting', 'HTTP ' + resp.status);
      } else {
        await readStream(resp.body.getReader(), ctrl, since);
        if (stream !== ctrl) return; // replaced on purpose
        setConnection('reconnecting', 'the stream ended');
        next = RETRY_MS[0];
      }
    } catch (err) {
      if (stream !== ctrl) return;
      setConnection('reconnecting', String(err));
    }
    if (stream !== ctrl) return;
    retry++;
    scheduleConnect(next);
  }

  // readStream parses text/event-stream: "field: value" lines, events
  // separated by a blank line, ":" lines are comments (the pings).
  async function readStream(reader, ctrl, since) {
    const decoder = new TextDecoder();
    let buf = '';
    let scanned = 0; // buf[:scanned] has no newline
    let type = '';
    let data = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done || stream !== ctrl) return;
      buf += decoder.decode(value, { stream: true });
      let start = 0;
      for (;;) {
        const nl = buf.indexOf('\n', Math.max(start, scanned));
        if (nl < 0) break;
        let line = buf.slice(start, nl);
        start = nl + 1;
        if (line.endsWith('\r')) line = line.slice(0, -1);
        if (line === '') {
          if (data.length) dispatch(type || 'message', data.join('\n'), since, ctrl);
          type = '';
          data = [];
          continue;
        }
        if (line[0] === ':') continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let val = colon < 0 ? '' : line.slice(colon + 1);
        if (val[0] === ' ') val = val.slice(1);
        if (field === 'event') type = val;
        else if (field === 'data') data.push(val);
      }
      buf = buf.slice(start);
      scanned = buf.length;
    }
  }

  function dispatch(type, data, since, ctrl) {
    let v;
    try {
      v = JSON.parse(data);
    } catch (err) {
      console.warn('crdlab: bad event data', type, err);
      return;
    }
    if (type === 'hello') {
      app.helloSeq = v.seq || 0;
      // A server that restarted numbers its events from 1 again: its seq
      // is behind ours, or (if it says when it started) it started anew.
      const boot = String(v.started || v.boot || '');
      const restarted = app.helloSeq < since || (boot && app.boot && boot !== app.boot);
      if (boot) app.boot = boot;
      if (restarted) {
        forget();
        app.lastSeq = 0;
        app.helloSeq = 0;
        if (stream === ctrl) reconnectNow();
        return;
      }
      retry = 0;
      setConnection('connected', 'streaming from ' + endpoint('events'));
    } else if (type === 'events') {
      if (Array.isArray(v)) ingest(v);
    } else if (type === 'dropped') {
      app.dropped = v.dropped || 0;
      el.dropped.hidden = !app.dropped;
      el.dropped.textContent = app.dropped + ' dropped';
    }
  }

  // forget clears the list and the paths (the "clear" button; a restarted
  // server).
  function forget() {
    buffer.length = 0;
    queued = [];
    pending = [];
    pausedNew = 0;
    keys.clear();
    pathDirty = true;
    rebuild = true;
    requestFrame();
  }

  // ---- /debug/crdlab/state -------------------------------------------------

  function pollStateSoon() {
    if (stateInFlight) {
      stateAgain = true;
      return;
    }
    clearTimeout(stateTimer);
    stateTimer = setTimeout(pollState, 50);
  }

  async function pollState() {
    clearTimeout(stateTimer);
    stateInFlight = true;
    try {
      const resp = await fetch(endpoint('state'), { headers: authHeaders(), cache: 'no-store' });
      if (resp.ok) {
        applyState(await resp.json());
      } else if ((resp.status === 401 || resp.status === 403) && app.connection !== 'unauthorized') {
        setConnection('unauthorized', 'state: HTTP ' + resp.status);
      }
    } catch (err) {
      // The server is down or restarting; the stream says so.
    }
    stateInFlight = false;
    stateTimer = setTimeout(pollState, stateAgain ? 50 : STATE_MS);
    stateAgain = false;
  }

  function applyState(s) {
    app.stateUpdates++;
    el.revision.textContent = s.revision ? 'revision ' + s.revision : '';

    const queues = s.queues || [];
    let depth = 0;
    const qbody = el.queues.tBodies[0];
    qbody.textContent = '';
    for (const q of queues) {
      depth += q.depth || 0;
      const tr = make('tr', q.depth ? 'busy' : '');
      tr.dataset.queue = q.name;
      tr.dataset.depth = q.depth || 0;
      tr.appendChild(make('td', 'name', q.name)).title = q.name;
      tr.appendChild(make('td', 'num', String(q.depth || 0)));
      tr.appendChild(make('td', 'num', String(q.adds || 0)));
      tr.appendChild(make('td', 'num', String(q.retries || 0)));
      qbody.appendChild(tr);
    }
    numbers.workqueue = queues.length ? 'depth ' + depth : '';

    const informers = s.informers || [];
    let cache = 0;
    const ibody = el.informers.tBodies[0];
    ibody.textContent = '';
    for (const inf of informers) {
      cache += inf.cacheSize || 0;
      const tr = make('tr');
      tr.dataset.informer = inf.name;
      tr.dataset.cacheSize = inf.cacheSize || 0;
      tr.appendChild(make('td', 'name', inf.name)).title = inf.name;
      tr.appendChild(make('td', 'num', String(inf.cacheSize || 0)));
      tr.appendChild(make('td', 'num', inf.synced ? '✓' : '…'));
      ibody.appendChild(tr);
    }
    numbers.informer = informers.length ? 'cache ' + cache : '';

    renderCRDs(s.crds || []);
    requestFrame();
  }

  // ---- CRD panels -------------------------------------------------------------

  const STATES = ['NamesAccepted', 'Established', 'Terminating', 'gone'];
  const panels = new Map(); // CRD name → {section, items: {state: li}, goneAt}

  function condition(crd, type) {
    for (const c of crd.conditions || []) if (c.type === type) return c;
    return null;
  }

  // crdState is the state the panel lights: the furthest one reached.
  function crdState(crd) {
    const t = condition(crd, 'Terminating');
    if (crd.terminating || (t && t.status === 'True')) return 'Terminating';
    const e = condition(crd, 'Established');
    if (e && e.status === 'True') return 'Established';
    const n = condition(crd, 'NamesAccepted');
    if (n && n.status === 'True') return 'NamesAccepted';
    return 'Pending';
  }

  function newPanel(name) {
    const section = make('section', 'crd');
    section.dataset.crd = name;
    const h = make('h3');
    const b = make('button', 'key', name);
    b.type = 'button';
    b.dataset.key = name;
    b.title = 'show the path of ' + name;
    h.appendChild(b);
    section.appendChild(h);
    const meta = make('p', 'meta');
    section.appendChild(meta);
    const ol = make('ol', 'machine');
    const items = {};
    for (const st of STATES) {
      const li = make('li');
      li.dataset.step = st;
      li.appendChild(make('b', '', st));
      li.appendChild(make('small', '', ''));
      ol.appendChild(li);
      items[st] = li;
    }
    section.appendChild(ol);
    return { section: section, meta: meta, items: items, goneAt: 0 };
  }

  function renderCRDs(list) {
    const box = el.crds;
    const now = performance.now();
    const seen = new Set();
    for (const crd of list) {
      seen.add(crd.name);
      let p = panels.get(crd.name);
      if (!p) {
        p = newPanel(crd.name);
        panels.set(crd.name, p);
        box.appendChild(p.section);
      }
      p.goneAt = 0;
      updatePanel(p, crd);
    }
    for (const [name, p] of panels) {
      if (seen.has(name)) continue;
      if (!p.goneAt) {
        p.goneAt = now;
        setPanelState(p, 'gone');
        p.items.gone.querySelector('small').textContent = 'deleted';
      } else if (now - p.goneAt > GONE_MS) {
        p.section.remove();
        panels.delete(name);
      }
    }
    el.crdsEmpty.hidden = panels.size > 0;
  }

  function updatePanel(p, crd) {
    const versions = (crd.versions || []).join(', ');
    p.meta.textContent = [crd.group, crd.plural, versions].filter(Boolean).join(' · ') +
      (crd.resourceVersion ? ' · rv ' + crd.resourceVersion : '') +
      (crd.generation ? ' · generation ' + crd.generation : '');
    for (const st of ['NamesAccepted', 'Established', 'Terminating']) {
      const c = condition(crd, st);
      const li = p.items[st];
      li.querySelector('small').textContent = c ? c.status + (c.reason ? ' · ' + c.reason : '') : 'no condition';
      li.title = c ? `${st}=${c.status} (${c.reason || ''}) ${c.message || ''}${c.lastTransitionTime ? ' since ' + c.lastTransitionTime : ''}` : st + ': not set';
      li.classList.toggle('false', !!c && c.status === 'False');
      li.dataset.status = c ? c.status : '';
    }
    p.items.gone.querySelector('small').textContent = '';
    setPanelState(p, crdState(crd));
  }

  function setPanelState(p, state) {
    p.section.dataset.state = state;
    const at = STATES.indexOf(state);
    STATES.forEach((st, i) => {
      p.items[st].classList.toggle('lit', i === at);
      p.items[st].classList.toggle('done', at >= 0 && i < at);
    });
  }

  // ---- wiring --------------------------------------------------------------

  function tick() {
    app.rate = rateCount;
    rateCount = 0;
    el.rate.textContent = app.rate + ' events/s';
  }

  function init() {
    for (const id of ['diagram', 'rows', 'path', 'conn', 'rate', 'total', 'dropped', 'revision', 'notice',
      'crds', 'queues', 'informers', 'pause', 'clear', 'shown', 'token']) el[id] = document.getElementById(id);
    el.pathKey = $('#path-key');
    el.pathEmpty = $('#path-empty');
    el.pathFilter = $('#path-filter');
    el.componentFilter = $('#component-filter');
    el.keyFilter = $('#key-filter');
    el.crdsEmpty = $('#crds .empty');

    drawDiagram();
    drawFilters();

    // A click on any key (list rows, CRD panels) shows its path.
    document.addEventListener('click', (ev) => {
      const b = ev.target.closest && ev.target.closest('button.key');
      if (b) selectKey(b.dataset.key);
    });
    el.pathFilter.addEventListener('click', () => {
      el.keyFilter.value = selectedKey;
      keyFilter = selectedKey.toLowerCase();
      rebuild = true;
      requestFrame();
    });
    el.keyFilter.addEventListener('input', () => {
      keyFilter = el.keyFilter.value.trim().toLowerCase();
      rebuild = true;
      requestFrame();
    });
    el.pause.addEventListener('click', () => {
      paused = !paused;
      el.pause.setAttribute('aria-pressed', String(paused));
      document.body.dataset.paused = paused ? 'true' : '';
      if (!paused) {
        el.pause.textContent = 'pause';
        pausedNew = 0;
        pending = [];
        rebuild = true;
      }
      requestFrame();
    });
    el.clear.addEventListener('click', forget);
    const speed = $('#speed');
    speed.value = SPEEDS[localStorage.getItem('crdlab-speed')] ? localStorage.getItem('crdlab-speed') : 'normal';
    setSpeed(speed.value);
    speed.addEventListener('change', () => {
      setSpeed(speed.value);
      localStorage.setItem('crdlab-speed', speed.value);
    });
    el.token.value = token;
    $('#token-form').addEventListener('submit', (ev) => ev.preventDefault()); // Enter fires change
    el.token.addEventListener('change', () => {
      token = el.token.value.trim();
      if (token) sessionStorage.setItem('crdlab-token', token);
      else sessionStorage.removeItem('crdlab-token');
      reconnectNow();
      pollStateSoon();
    });

    setInterval(tick, 1000);
    renderPath();
    connect();
    pollState();
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
