// provlog explorer: table sorting and filtering, proof tree and graph, tie graph.
// Data comes from <script type="application/json"> blocks the server wrote with |tojson; nothing is eval'ed.
(function () {
  "use strict";
  window.provlog = {};

  function readJSON(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }

  // --- registry: sort by a column, filter rows ------------------------------------------------
  function sortable(table) {
    table.querySelectorAll("th[data-sort]").forEach(function (th, col) {
      th.addEventListener("click", function () {
        var body = table.tBodies[0], rows = Array.prototype.slice.call(body.rows);
        var num = th.dataset.sort === "num", dir = th.dataset.dir === "asc" ? -1 : 1;
        th.dataset.dir = dir === 1 ? "asc" : "desc";
        rows.sort(function (a, b) {
          var x = a.cells[col].textContent.trim(), y = b.cells[col].textContent.trim();
          if (num) { x = x === "-" ? -1 : +x; y = y === "-" ? -1 : +y; return dir * (x - y); }
          return dir * x.localeCompare(y);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  }
  // --- exact weighted number (section 13), as queries/records.py weighted_number computes it ------
  // A weight is "3", "0.3" or "3/10": a rational held as BigInt numerator and denominator, never a float.
  function gcd(a, b) { a = a < 0n ? -a : a; b = b < 0n ? -b : b; while (b) { var t = a % b; a = b; b = t; } return a; }
  function ratio(n, d) { var g = gcd(n, d) || 1n; return { n: n / g, d: d / g }; }
  function parseWeight(text) {
    text = String(text).trim();
    var m = /^([0-9]+)(?:\.([0-9]+))?$/.exec(text);
    if (m) { var frac = m[2] || ""; return ratio(BigInt(m[1] + frac), 10n ** BigInt(frac.length)); }
    m = /^([0-9]+)\/([0-9]+)$/.exec(text);
    if (m && BigInt(m[2]) > 0n) return ratio(BigInt(m[1]), BigInt(m[2]));
    return null;
  }
  // sum of weight x value over evidenced dimensions / sum of their weights; null when no weight is evidenced
  function weighted(values, weights, dims) {
    var num = { n: 0n, d: 1n }, den = { n: 0n, d: 1n };
    dims.forEach(function (d, i) {
      var v = values[i], w = weights[d];
      if (v === null || v === undefined || !w) return;
      num = ratio(num.n * w.d + w.n * BigInt(v) * num.d, num.d * w.d);
      den = ratio(den.n * w.d + w.n * den.d, den.d * w.d);
    });
    if (den.n === 0n) return null;
    return ratio(num.n * den.d, num.d * den.n);
  }
  function show(q) { return q.d === 1n ? String(q.n) : q.n + "/" + q.d; }  // as Python's str(Fraction)
  function cmp(a, b) { var x = a.n * b.d, y = b.n * a.d; return x < y ? -1 : x > y ? 1 : 0; }
  function fixed2(q) {  // two decimals, half up, from the exact value
    var c = (q.n * 200n + q.d) / (2n * q.d), s = String(c).padStart(3, "0");
    return s.slice(0, -2) + "." + s.slice(-2);
  }
  window.provlog.weighted = function (values, weights, dims) {
    var ws = {};
    for (var d in weights) { ws[d] = parseWeight(weights[d]); }
    var q = weighted(values, ws, dims);
    return q === null ? null : show(q);
  };

  // --- registry: sort by a column, search rows, weights from the URL ---------------------------
  function rowsOf(table) { return Array.prototype.slice.call(table.tBodies[0].rows).filter(function (r) { return r.dataset.org; }); }
  function sortable(table, bands) {
    table.querySelectorAll("th[data-sort]").forEach(function (th, col) {
      th.tabIndex = 0;
      function go() {
        var body = table.tBodies[0], rows = rowsOf(table);
        var kind = th.dataset.sort, dir = th.dataset.dir === "asc" ? -1 : 1;
        th.dataset.dir = dir === 1 ? "asc" : "desc";
        table.querySelectorAll("th[data-sort]").forEach(function (h) { h.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir === 1 ? "ascending" : "descending");
        rows.sort(function (a, b) {
          var x = a.cells[col].textContent.trim(), y = b.cells[col].textContent.trim();
          if (kind === "band") { return dir * (bands.indexOf(x) - bands.indexOf(y)); }
          if (kind === "num") { x = x === "-" || x === "" ? -1 : +x; y = y === "-" || y === "" ? -1 : +y; return dir * (x - y); }
          return dir * x.localeCompare(y);
        });
        rows.forEach(function (r) { body.appendChild(r); });
      }
      th.addEventListener("click", go);
      th.addEventListener("keydown", function (ev) { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); go(); } });
    });
  }
  var reg = document.getElementById("registry");
  var regData = readJSON("registry-data");
  if (reg && regData) {
    var tables = Array.prototype.slice.call(reg.querySelectorAll("table"));
    tables.forEach(function (t) { sortable(t, regData.bands); });
    var filter = document.getElementById("filter");
    filter.addEventListener("input", function () {
      var q = filter.value.toLowerCase();
      tables.forEach(function (t) { rowsOf(t).forEach(function (r) { r.hidden = q && r.textContent.toLowerCase().indexOf(q) < 0; }); });
    });
    // no prototype: ?preset=__proto__ or constructor names no preset (hasOwn below), never Object's own
    var dims = regData.dims, presets = Object.create(null);
    regData.presets.forEach(function (p) { presets[p.id] = p; });
    function preset(id) { return Object.prototype.hasOwnProperty.call(presets, id) ? presets[id] : null; }
    var sel = document.getElementById("preset"), err = document.getElementById("weights-error");
    function inputs() { return dims.map(function (d) { return document.getElementById("w-" + d); }); }
    function fail(msg) { err.textContent = msg; err.hidden = false; rank(null); }
    // a band's rows by weighted number, highest first; ties and unevidenced rows keep name order
    function rank(ws) {
      tables.forEach(function (t) {
        var body = t.tBodies[0], rows = rowsOf(t), scored = rows.map(function (r, i) {
          var q = ws ? weighted(regData.values[r.dataset.org], ws, dims) : null, cell = r.querySelector("td.weighted");
          if (cell) { cell.textContent = q === null ? (ws ? "-" : "") : fixed2(q); cell.title = q === null ? "" : show(q); }
          return { r: r, q: q, b: regData.bands.indexOf(r.cells[dims.length + 1].textContent.trim()),
                   name: r.cells[0].textContent.trim() };
        });
        if (!t.querySelector("th.weighted")) return;
        scored.sort(function (a, b) {
          if (a.b !== b.b) return a.b - b.b;
          if (a.q && b.q && cmp(a.q, b.q)) return -cmp(a.q, b.q);
          if (!a.q !== !b.q) return a.q ? -1 : 1;
          return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
        });
        scored.forEach(function (s) { body.appendChild(s.r); });
      });
    }
    function fromURL() {
      var params = new URLSearchParams(window.location.search), p = params.get("preset"), w = params.get("weights");
      err.hidden = true;
      if (p !== null && p !== "") {
        if (!preset(p)) return fail("The link names preset \u201c" + p + "\u201d, which this world does not have; presets: " +
                                     (Object.keys(presets).join(", ") || "none") + ". No number is shown.");
        sel.value = p; inputs().forEach(function (el) { el.value = presets[p].weights[el.dataset.dim]; });
        return apply(false);
      }
      if (w !== null && w !== "") {
        sel.value = "own";
        var seen = {};
        var bad = w.split(",").filter(function (part) {
          var kv = part.split(":"), el = kv.length === 2 && dims.indexOf(kv[0]) >= 0 ? document.getElementById("w-" + kv[0]) : null;
          if (!el || seen[kv[0]] || !parseWeight(kv[1])) return true;
          seen[kv[0]] = true; el.value = kv[1]; return false;
        });
        if (bad.length) return fail("The link\u2019s weights are not readable: " + bad.join(", ") +
                                    " (each is DIM:NUMBER, a dimension of " + dims.join(" ") + " and a number like 2 or 0.5). No number is shown.");
        return apply(false);
      }
      rank(null);
    }
    function apply(push) {
      var ws = {}, bad = [], any = false;
      inputs().forEach(function (el) {
        var v = el.value.trim() === "" ? "0" : el.value, q = parseWeight(v);
        el.setAttribute("aria-invalid", q ? "false" : "true");
        if (!q) bad.push(el.dataset.dim + " \u201c" + el.value + "\u201d"); else { ws[el.dataset.dim] = q; if (q.n > 0n) any = true; }
      });
      if (bad.length) return fail("Weights must be numbers like 2, 0.5 or 1/3: " + bad.join(", ") + ". No number is shown.");
      if (!any) return fail("At least one weight must be above 0. No number is shown.");
      err.hidden = true;
      rank(ws);
      var params = new URLSearchParams(window.location.search);
      params.delete("preset"); params.delete("weights");
      var p = sel.value, rest = params.toString(), q;
      if (preset(p) && dims.every(function (d) { var a = parseWeight(presets[p].weights[d]); return cmp(a, ws[d]) === 0; })) {
        q = "preset=" + encodeURIComponent(p);
      } else {  // F:3,G:1/2,...: only letters, digits and : / , so the link stays readable
        q = "weights=" + dims.map(function (d) { return d + ":" + show(ws[d]); }).join(",");
      }
      q = (rest ? rest + "&" : "") + q;
      if (push) window.history.replaceState(null, "", window.location.pathname + "?" + q);
      var link = document.getElementById("permalink");
      link.href = "?" + q; document.getElementById("weights-link").hidden = false;
    }
    sel.addEventListener("change", function () {
      if (preset(sel.value)) { inputs().forEach(function (el) { el.value = presets[sel.value].weights[el.dataset.dim]; }); apply(true); }
      else if (sel.value === "") { clear(); }
    });
    function clear() {
      sel.value = ""; inputs().forEach(function (el) { el.value = ""; });
      var params = new URLSearchParams(window.location.search);
      params.delete("preset"); params.delete("weights");
      var q = params.toString();
      window.history.replaceState(null, "", window.location.pathname + (q ? "?" + q : ""));
      err.hidden = true; document.getElementById("weights-link").hidden = true; rank(null);
      tables.forEach(function (t) {  // back to band, then name
        var rows = rowsOf(t).sort(function (a, b) {
          var x = regData.bands.indexOf(a.cells[dims.length + 1].textContent.trim()), y = regData.bands.indexOf(b.cells[dims.length + 1].textContent.trim());
          var m = a.cells[0].textContent.trim(), n = b.cells[0].textContent.trim();
          return x - y || (m < n ? -1 : m > n ? 1 : 0);
        });
        rows.forEach(function (r) { t.tBodies[0].appendChild(r); });
      });
    }
    document.getElementById("apply").addEventListener("click", function () { sel.value = sel.value === "" ? "own" : sel.value; apply(true); });
    document.getElementById("clear").addEventListener("click", clear);
    inputs().forEach(function (el) { el.addEventListener("keydown", function (ev) { if (ev.key === "Enter") { ev.preventDefault(); sel.value = "own"; apply(true); } }); });
    fromURL();
  }

  var pf = document.getElementById("filter-people");
  if (pf) {
    pf.addEventListener("input", function () {
      var q = pf.value.toLowerCase();
      document.querySelectorAll("#people li").forEach(function (li) { li.hidden = q && li.textContent.toLowerCase().indexOf(q) < 0; });
    });
  }

  // --- graphs ---------------------------------------------------------------------------------
  var STYLE = [
    { selector: "node", style: { "label": "data(label)", "text-wrap": "wrap", "text-max-width": 180, "font-size": 9,
      "text-valign": "center", "shape": "round-rectangle", "width": 190, "height": 44, "background-color": "#eef2f7",
      "border-width": 1, "border-color": "#8a9bb0" } },
    { selector: "node.fact", style: { "background-color": "#fffbe6" } },
    { selector: "node.fired", style: { "border-width": 3, "border-color": "#c0392b" } },
    { selector: "node.clamp", style: { "background-color": "#fdebd0" } },
    { selector: "node.lab", style: { "background-color": "#f5b7b1" } },
    { selector: "node.start", style: { "border-width": 3, "border-color": "#2471a3" } },
    { selector: "edge", style: { "width": 1, "line-color": "#8a9bb0", "target-arrow-shape": "triangle",
      "target-arrow-color": "#8a9bb0", "curve-style": "bezier", "label": "data(label)", "font-size": 8,
      "text-rotation": "autorotate", "text-background-color": "#fff", "text-background-opacity": 1 } }
  ];

  function graph(container, elements, root) {
    return cytoscape({ container: container, elements: elements, style: STYLE, wheelSensitivity: 0.3,
      layout: { name: "breadthfirst", directed: true, roots: root ? [root] : undefined, spacingFactor: 1.1 } });
  }

  // --- the static site's proof tree, drawn from the proof's nodes and edges -------------------
  // The same markup as templates/_node.html (which `provlog serve` renders): each node once, a node
  // met again is "see #n"; text goes in as textContent only, control and bidi characters shown as
  // [U+XXXX] as the server's finalize (app.py visible) shows them.
  var INVISIBLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;  // provlog/errors.py CONTROLS
  function vis(s) {
    return String(s).replace(INVISIBLE, function (c) { return "[U+" + c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0") + "]"; });
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = vis(text);
    return e;
  }
  function drawTree(into, proof) {
    var byId = {}, kids = {}, seen = {};
    proof.nodes.forEach(function (n) { byId[n.id] = n; });
    proof.edges.forEach(function (e) { (kids[e[0]] = kids[e[0]] || []).push(e[1]); });
    function sourceOf(s) {
      var div = el("div", "source"), meta = s.status || "";
      div.append("source ");
      if (s.url) { var a = el("a", null, s.id); a.href = vis(s.url); a.rel = "noopener noreferrer"; div.append(a); }
      else div.append(vis(s.id));
      if (s.title && !s.url) { div.append(" "); div.append(el("q", null, s.title)); }
      if (s.tier) meta += ", tier " + s.tier;
      if (s.publisher) meta += ", published by " + s.publisher;
      if (s.loc) meta += " \u00b7 " + s.loc;
      div.append(" "); div.append(el("small", null, meta));
      if (s.span) div.append(el("blockquote", null, s.span));
      return div;
    }
    function node(id) {
      var n = byId[id], cls = ["node", n.kind].concat(n.fired ? ["fired"] : []).concat(n.clamp ? ["clamp"] : []);
      if (seen[id]) {
        var d = el("div", cls.concat(["see"]).join(" ")), a = el("a", null, "see #" + n.handle);
        a.href = "#" + id; d.append(a, " " + vis(n.label || ""));
        return d;
      }
      seen[id] = true;
      var det = el("details", cls.join(" ")), sum = el("summary");
      det.open = true; det.id = id;
      sum.append(el("span", "handle", "#" + n.handle));
      if (n.clamp) sum.append(" ", el("span", "tag clamp", "held by " + n.clamp));
      if (n.fired) sum.append(" ", el("span", "tag fired", "decides"));
      sum.append(" ", el("span", "label", n.label || ""));
      if (n.loc) sum.append(" ", el("span", "loc", n.loc));
      det.append(sum);
      (n.sources || []).forEach(function (s) { det.append(sourceOf(s)); });
      (kids[id] || []).forEach(function (k) { det.append(node(k)); });
      return det;
    }
    into.textContent = "";
    into.append(node(proof.root));
  }

  var proof = readJSON("proof-data");
  if (proof) {
    var tree = document.getElementById("tree"), gsec = document.getElementById("graph");
    if (tree.hasAttribute("data-draw")) drawTree(tree, proof);
    var drawn = null;
    document.getElementById("show-graph").addEventListener("click", function () {
      tree.hidden = true; gsec.hidden = false;
      if (!drawn) {
        var els = proof.nodes.map(function (n) {
          var cls = [n.kind || ""]; if (n.fired) cls.push("fired"); if (n.clamp) cls.push("clamp");
          var label = "#" + n.handle + " " + (n.label.length > 90 ? n.label.slice(0, 87) + "..." : n.label);
          return { data: { id: n.id, label: label }, classes: cls.join(" ") };
        }).concat(proof.edges.map(function (e) { return { data: { source: e[0], target: e[1], label: "" } }; }));
        drawn = graph(document.getElementById("cy"), els, proof.root);
        drawn.on("tap", "node", function (ev) {
          tree.hidden = false; gsec.hidden = true;
          var el = document.getElementById(ev.target.id());
          if (el) { el.open = true; el.scrollIntoView(); }
        });
        window.provlog.cy = drawn;
      }
    });
    document.getElementById("show-tree").addEventListener("click", function () { tree.hidden = false; gsec.hidden = true; });
    document.getElementById("collapse").addEventListener("click", function () {
      tree.querySelectorAll("details").forEach(function (d) { d.open = false; });
    });
    document.getElementById("expand").addEventListener("click", function () {
      tree.querySelectorAll("details").forEach(function (d) { d.open = true; });
    });
  }

  var ties = readJSON("tie-data");
  if (ties) {
    var els = ties.nodes.map(function (n) {
      var cls = [n.kind || ""]; if (n.id === ties.start) cls.push("start");
      return { data: { id: n.id, label: n.name + (n.hop !== null ? " (hop " + n.hop + ")" : "") }, classes: cls.join(" ") };
    }).concat(ties.edges.map(function (e, i) {
      return { data: { id: "e" + i, source: e.source, target: e.target, label: e.label } };
    }));
    window.provlog.cy = graph(document.getElementById("cy"), els, ties.start);
    var links = readJSON("tie-links") || {};
    window.provlog.cy.on("tap", "node", function (ev) { if (links[ev.target.id()]) window.location = links[ev.target.id()]; });
  }
})();
