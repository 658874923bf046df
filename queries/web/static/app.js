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
  var reg = document.getElementById("registry");
  if (reg) {
    sortable(reg);
    var filter = document.getElementById("filter");
    filter.addEventListener("input", function () {
      var q = filter.value.toLowerCase();
      Array.prototype.forEach.call(reg.tBodies[0].rows, function (r) {
        r.hidden = q && r.textContent.toLowerCase().indexOf(q) < 0;
      });
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

  var proof = readJSON("proof-data");
  if (proof) {
    var tree = document.getElementById("tree"), gsec = document.getElementById("graph");
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
    window.provlog.cy.on("tap", "node", function (ev) { window.location = "/money/" + encodeURIComponent(ev.target.id()); });
  }
})();
