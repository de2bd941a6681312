/*
 * The map editor: a scenario document (docs/scenario.md) drawn as the battle pages draw a
 * table (templates/battles/table.html: inches, y measured up from the near edge, flipped once
 * here for SVG) and edited in place. Terrain pieces from the palette are polygons whose corners
 * are dragged; buildings come from the card library; objectives, each side's deployment zone
 * (a polygon, edited by its corners like terrain) and its deployment spots are placed and
 * moved; everything snaps to the half inch; Undo steps back. After each
 * change the server checks the document with the engine's own validator and every problem is
 * pinned to the piece it names. The form's JSON field always holds the document, so Save sends
 * exactly what is drawn; without JavaScript the page's numbers form (campaign/map_numbers.py)
 * does the same job.
 */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var MARGIN = 1.2;
  var CHECK_MS = 250;
  var UNDO_LIMIT = 100;
  // A problem about the map's table, turn limit or a whole list of pieces (not one piece) is
  // named as the editor's own fields and groups name it, not by the document's key.
  var PLACES = {
    "table.width": "Table width", "table.height": "Table height", turn_limit: "Turn limit",
    terrain: "Terrain", buildings: "Buildings", objectives: "Objectives"
  };

  function placeWords(path) {
    return (Object.prototype.hasOwnProperty.call(PLACES, path) ? PLACES[path] : path) || "the map";
  }

  function el(name, attributes, parent) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    if (parent) { parent.appendChild(node); }
    return node;
  }

  function num(value) { return String(Math.round(value * 1000) / 1000); }

  function blank(ruleset, side) {
    return {
      ruleset: ruleset, table: { width: side, height: side }, turn_limit: 6,
      terrain: [], buildings: [], objectives: [],
      sides: [{ id: "attackers", name: "Attackers", units: [] },
              { id: "defenders", name: "Defenders", units: [] }]
    };
  }

  // Why a document cannot be drawn ("" when it can): the editor keeps the last map it could
  // draw rather than going blank, and says why.
  function undrawable(doc) {
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) { return "it is not a scenario document"; }
    var t = doc.table;
    if (!t || typeof t !== "object" || !(t.width > 0) || !(t.height > 0) || !isFinite(t.width) || !isFinite(t.height)) {
      return "its table needs a width and a height above 0";
    }
    var lists = ["terrain", "buildings", "objectives", "sides"];
    for (var i = 0; i < lists.length; i++) {
      if (doc[lists[i]] !== undefined && !Array.isArray(doc[lists[i]])) { return "its " + lists[i] + " must be a list"; }
    }
    return "";
  }

  // What a file chosen with "Import JSON", or the text in the JSON field (`what`: "The JSON
  // field"), holds: {map} when it is a map the editor can draw, else {why}, a sentence saying
  // why not in the words the campaign import uses for a file (battles/jsontext.py): empty, cut
  // short, not JSON (where it stops being JSON: the browser's own message differs from one
  // browser to the next), or one of the site's exports, which is no map (`exports`: each
  // export's "format" and what it is of, campaign.transfer.format.FORMAT_KINDS).
  function mapFileRead(text, exports, what) {
    what = what || "That file";
    if (!String(text).trim()) { return { why: what + " is empty." }; }
    var data;
    try { data = JSON.parse(text); } catch (e) {
      var cut = cutShortAt(text);
      if (cut) {
        return { why: what + " is cut short: it stops at line " + cut + " before its JSON is closed (copy or download it again, whole)." };
      }
      var at = notJsonAt(text);
      var where = at ? " at line " + at.line + ", column " + at.column : "";
      return { why: what + " is not JSON" + where + ", so it holds no map (a map file is what Export JSON saves)." };
    }
    var kind = data && typeof data === "object" && typeof data.format === "string" &&
      Object.prototype.hasOwnProperty.call(exports || {}, data.format) ? exports[data.format] : "";
    if (kind === "campaign") {
      return { why: what + " is a Bridgehead campaign export, not a map: import it on the campaign import page (My campaigns, \"Import a campaign from an export file\")." };
    }
    if (kind) { return { why: what + " is a Bridgehead " + kind + " export, not a map." }; }
    var why = undrawable(data);
    if (why) { return { why: what + " cannot be drawn (" + why + ")." }; }
    return { map: data };
  }

  // Where a text stops being JSON: {line, column} (from 1, as the server's reading names them,
  // battles/jsontext.py) of the first character JSON cannot read there, else null.
  function notJsonAt(text) {
    var i = 0;
    var scalar = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
    var escape = /["\\/bfnrt]|u[0-9a-fA-F]{4}/y;
    function space() { while (i < text.length && " \t\n\r".indexOf(text[i]) >= 0) { i++; } }
    function string() {
      for (i++; i < text.length; i++) {
        var ch = text[i];
        if (ch === "\"") { i++; return true; }
        if (ch < " ") { return false; }
        if (ch === "\\") {
          escape.lastIndex = i + 1;
          var code = escape.exec(text);
          if (!code) { return false; }
          i += code[0].length;
        }
      }
      return false;
    }
    function items(close, item) {
      i++; space();
      if (text[i] === close) { i++; return true; }
      for (;;) {
        space();
        if (!item()) { return false; }
        space();
        if (text[i] === close) { i++; return true; }
        if (text[i] !== ",") { return false; }
        i++;
      }
    }
    function member() {
      if (text[i] !== "\"" || !string()) { return false; }
      space();
      if (text[i] !== ":") { return false; }
      i++;
      return value();
    }
    function value() {
      space();
      if (text[i] === "{") { return items("}", member); }
      if (text[i] === "[") { return items("]", value); }
      if (text[i] === "\"") { return string(); }
      scalar.lastIndex = i;
      var word = scalar.exec(text);
      if (!word) { return false; }
      i += word[0].length;
      return true;
    }
    try {
      if (value()) { space(); if (i >= text.length) { return null; } }
    } catch (e) {
      return null; // nested too deep to follow: no place to name
    }
    var before = text.slice(0, i).split("\n");
    return { line: before.length, column: before[before.length - 1].length + 1 };
  }

  // The line a JSON text stops on when it stops before its end (a download or a copy cut off:
  // a string or a bracket still open at the end), else 0.
  function cutShortAt(text) {
    var open = 0, inString = false, escaped = false;
    for (var i = 0; i < text.length; i++) {
      var ch = text[i];
      if (inString) {
        if (escaped) { escaped = false; } else if (ch === "\\") { escaped = true; } else if (ch === "\"") { inString = false; }
      } else if (ch === "\"") { inString = true; } else if (ch === "{" || ch === "[") { open++; } else if (ch === "}" || ch === "]") { open--; }
    }
    return inString || open > 0 ? text.replace(/\s+$/, "").split("\n").length : 0;
  }

  function centroid(points) {
    var x = 0, y = 0;
    points.forEach(function (p) { x += p[0]; y += p[1]; });
    return [x / points.length, y / points.length];
  }

  function Editor(box, data) {
    this.box = box;
    this.data = data;
    this.snap = data.snap || 0.5;
    this.form = document.getElementById(box.getAttribute("data-form"));
    this.field = this.form.querySelector("textarea[name=scenario]");
    this.checkUrl = box.getAttribute("data-check-url");
    this.svg = box.querySelector("svg.editor-map");
    this.list = box.querySelector("[data-pieces]");
    this.panel = box.querySelector("[data-panel]");
    this.problemsBox = box.querySelector("[data-problems]");
    this.status = box.querySelector("[data-editor-status]");
    this.undoStack = [];
    this.selected = null; // {kind, index, side}
    this.problems = [];
    this.serial = 0;
    this.memory = "bridgehead.map-editor." + this.checkUrl;
    var start = null, why = "";
    try { start = this.field.value.trim() ? JSON.parse(this.field.value) : null; } catch (e) { why = "it is not JSON"; }
    if (start !== null) { why = undrawable(start); }
    this.keepField = false;
    if (why) {
      // The JSON field holds a map the editor cannot draw (as sent back with its problems):
      // the field keeps it; the editor draws the last map it could, or a blank one.
      this.state = this.lastGood() || blank(data.ruleset, data.table_side);
      this.keepField = true;
    } else {
      this.state = start || blank(data.ruleset, data.table_side);
    }
    this.bind();
    this.changed(false);
    if (why) { this.say("The map in the JSON field cannot be drawn (" + why + "); the editor shows the last map it could draw."); }
  }

  Editor.prototype.lastGood = function () {
    try {
      var kept = window.sessionStorage.getItem(this.memory);
      var doc = kept ? JSON.parse(kept) : null;
      return doc && !undrawable(doc) ? doc : null;
    } catch (e) { return null; }
  };

  // --- the document ----------------------------------------------------------------------

  Editor.prototype.remember = function () {
    this.keepField = false; // an edit in the editor: the JSON field follows the editor again
    this.undoStack.push(JSON.stringify(this.state));
    if (this.undoStack.length > UNDO_LIMIT) { this.undoStack.shift(); }
  };

  Editor.prototype.undo = function () {
    if (!this.undoStack.length) { this.say("Nothing to undo."); return; }
    this.state = JSON.parse(this.undoStack.pop());
    this.selected = null;
    this.changed(true);
    this.say("Undone.");
  };

  Editor.prototype.round = function (value) { return Math.round(value / this.snap) * this.snap; };

  Editor.prototype.freeId = function (prefix) {
    var used = {};
    var s = this.state;
    (s.terrain || []).concat(s.buildings || [], s.objectives || []).forEach(function (p) { used[p.id] = true; });
    (s.sides || []).forEach(function (side) { (side.units || []).forEach(function (u) { used[u.id] = true; }); });
    for (var n = 1; ; n++) { if (!used[prefix + "-" + n]) { return prefix + "-" + n; } }
  };

  Editor.prototype.middle = function () {
    var t = this.table();
    return [this.round(t.width / 2), this.round(t.height / 2)];
  };

  Editor.prototype.table = function () {
    var t = this.state.table || {};
    return { width: Number(t.width) || 24, height: Number(t.height) || 24 };
  };

  Editor.prototype.addTerrain = function (kind) {
    var c = this.middle();
    var w = 4, h = 4;
    if (kind === "river") { w = this.table().width; h = 2; c[0] = w / 2; }
    if (kind === "wall") { w = 4; h = 0.5; }
    var polygon = [[c[0] - w / 2, c[1] - h / 2], [c[0] + w / 2, c[1] - h / 2],
                   [c[0] + w / 2, c[1] + h / 2], [c[0] - w / 2, c[1] + h / 2]];
    this.remember();
    this.state.terrain = this.state.terrain || [];
    this.state.terrain.push({ id: this.freeId(kind), kind: kind, polygon: polygon });
    this.selected = { kind: "terrain", index: this.state.terrain.length - 1 };
    this.changed(true);
    this.say("Added " + kind + ": drag it, or its corners.");
  };

  Editor.prototype.addBuilding = function (libraryId) {
    var card = null;
    this.data.buildings.forEach(function (b) { if (String(b.id) === String(libraryId)) { card = b.card; } });
    if (!card) { this.say("Choose a building from the library first."); return; }
    var c = this.middle();
    this.remember();
    this.state.buildings = this.state.buildings || [];
    this.state.buildings.push({
      id: this.freeId(card.name.toLowerCase().replace(/[^a-z0-9]+/g, "-")),
      polygon: [[c[0] - 1.5, c[1] - 1.5], [c[0] + 1.5, c[1] - 1.5], [c[0] + 1.5, c[1] + 1.5], [c[0] - 1.5, c[1] + 1.5]],
      card: JSON.parse(JSON.stringify(card))
    });
    this.selected = { kind: "building", index: this.state.buildings.length - 1 };
    this.changed(true);
    this.say("Placed " + card.name + ".");
  };

  Editor.prototype.addObjective = function () {
    this.remember();
    this.state.objectives = this.state.objectives || [];
    var sides = (this.state.sides || []).map(function (s) { return s.id; });
    this.state.objectives.push({ id: this.freeId("objective"), kind: "hold", point: this.middle(), radius: 3,
                                 sides: sides.slice(0, 1), points_per_turn: 1, points_at_end: 3 });
    this.selected = { kind: "objective", index: this.state.objectives.length - 1 };
    this.changed(true);
    this.say("Added an objective: drag it, and set its holder and points below.");
  };

  Editor.prototype.addSpot = function (sideIndex) {
    var side = this.state.sides[sideIndex];
    var t = this.table();
    var y = sideIndex === 0 ? 2 : t.height - 2;
    var x = this.round(2 + 2 * side.units.length) % t.width;
    this.remember();
    side.units.push({ id: this.freeId(side.id + "-spot"), position: [x, y], card: this.data.spot_card });
    this.selected = { kind: "spot", side: sideIndex, index: side.units.length - 1 };
    this.changed(true);
    this.say("Added a deployment spot for " + (side.name || side.id) + ".");
  };

  Editor.prototype.addZone = function (sideIndex) {
    var side = this.state.sides[sideIndex];
    var t = this.table();
    var depth = Math.min(6, this.round(t.height / 3));
    var y0 = sideIndex === 0 ? 0 : t.height - depth;
    this.remember();
    side.zone = [[0, y0], [t.width, y0], [t.width, y0 + depth], [0, y0 + depth]];
    this.selected = { kind: "zone", side: sideIndex, index: 0 };
    this.changed(true);
    this.say("Drew the deployment zone of " + (side.name || side.id) + ": drag it, or its corners.");
  };

  // A zone is a side's `zone` list; as a piece it carries the side, so edits land there.
  function zonePiece(side) {
    return side && side.zone ? { id: "zone of " + (side.name || side.id), polygon: side.zone, zoneOf: side } : null;
  }

  Editor.prototype.piece = function (sel) {
    sel = sel || this.selected;
    if (!sel) { return null; }
    var s = this.state;
    if (sel.kind === "zone") { return zonePiece((s.sides || [])[sel.side]); }
    if (sel.kind === "terrain") { return (s.terrain || [])[sel.index]; }
    if (sel.kind === "building") { return (s.buildings || [])[sel.index]; }
    if (sel.kind === "objective") { return (s.objectives || [])[sel.index]; }
    if (sel.kind === "spot") { return ((s.sides[sel.side] || {}).units || [])[sel.index]; }
    return null;
  };

  Editor.prototype.remove = function () {
    var sel = this.selected;
    if (!this.piece()) { return; }
    this.remember();
    if (sel.kind === "zone") {
      var owner = this.state.sides[sel.side];
      delete owner.zone;
      this.selected = null;
      this.changed(true);
      this.say("Removed the deployment zone of " + (owner.name || owner.id) + ".");
      return;
    }
    var list = sel.kind === "spot" ? this.state.sides[sel.side].units
      : this.state[{ terrain: "terrain", building: "buildings", objective: "objectives" }[sel.kind]];
    var gone = list.splice(sel.index, 1)[0];
    this.selected = null;
    this.changed(true);
    this.say("Removed " + gone.id + ".");
  };

  // Move the selected piece (or one corner of it) by whole snap steps.
  Editor.prototype.shift = function (sel, dx, dy, corner, from) {
    var piece = this.piece(sel);
    var base = from || JSON.parse(JSON.stringify(piece));
    var self = this;
    function moved(p) { return [self.round(p[0] + dx), self.round(p[1] + dy)]; }
    if (base.polygon) {
      piece.polygon = base.polygon.map(function (p, i) {
        return corner === undefined || corner === null || corner === i ? moved(p) : p.slice();
      });
      if (piece.zoneOf) { piece.zoneOf.zone = piece.polygon; }
    } else if (base.point) {
      piece.point = moved(base.point);
    } else if (base.position) {
      piece.position = moved(base.position);
    }
  };

  // --- drawing ---------------------------------------------------------------------------

  Editor.prototype.changed = function (check) {
    // What the status line said was about the map before this change: gone with it (a change
    // that has something to say says it after this).
    this.say("");
    var text = JSON.stringify(this.state, null, 1);
    if (!this.keepField) { this.field.value = text; }
    if (!undrawable(this.state)) {
      try { window.sessionStorage.setItem(this.memory, text); } catch (e) { /* no storage: fine */ }
    }
    this.draw();
    this.drawList();
    this.drawPanel();
    if (check !== false) { this.scheduleCheck(); } else { this.check(); }
  };

  Editor.prototype.problemsOf = function (sel) {
    return this.problems.filter(function (p) {
      var at = p.piece;
      if (!at || at.kind !== sel.kind || at.index !== sel.index) { return false; }
      return (sel.kind !== "spot" && sel.kind !== "zone") || at.side === sel.side;
    });
  };

  Editor.prototype.draw = function () {
    var svg = this.svg;
    var t = this.table();
    var H = t.height;
    var self = this;
    while (svg.firstChild) { svg.removeChild(svg.firstChild); }
    svg.setAttribute("viewBox", [-MARGIN, -0.4, t.width + 2 * MARGIN, H + MARGIN + 0.4].map(num).join(" "));
    el("rect", { "class": "cloth", x: 0, y: 0, width: t.width, height: H }, svg);
    var grid = el("g", { "class": "grid", "aria-hidden": "true" }, svg);
    for (var x = 1; x < t.width; x++) {
      el("line", { x1: x, y1: 0, x2: x, y2: H, "class": x % 6 === 0 ? "major" : "" }, grid);
    }
    for (var y = 1; y < H; y++) {
      el("line", { x1: 0, y1: H - y, x2: t.width, y2: H - y, "class": y % 6 === 0 ? "major" : "" }, grid);
    }
    var ticks = el("g", { "class": "ticks", "aria-hidden": "true" }, svg);
    for (x = 0; x <= t.width; x += 6) { el("text", { x: x, y: H + 0.9 }, ticks).textContent = x + "″"; }
    for (y = 0; y <= H; y += 6) { el("text", { x: -0.3, y: H - y + 0.2 }, ticks).textContent = y + "″"; }
    function pts(polygon) {
      return (polygon || []).map(function (p) { return num(p[0]) + "," + num(H - p[1]); }).join(" ");
    }
    function mark(node, sel) {
      node.setAttribute("data-piece", sel.kind + ":" + (sel.side === undefined ? "" : sel.side + ":") + sel.index);
      var cls = node.getAttribute("class") || "";
      if (self.problemsOf(sel).length) { cls += " has-problem"; }
      if (self.selected && self.selected.kind === sel.kind && self.selected.index === sel.index &&
          self.selected.side === sel.side) { cls += " selected"; }
      node.setAttribute("class", cls);
      return node;
    }
    var labels = [];
    (this.state.sides || []).forEach(function (side, s) {
      if (!side.zone || !side.zone.length) { return; }
      var node = mark(el("polygon", { "class": "deploy-zone side-" + s, points: pts(side.zone) }, svg),
                      { kind: "zone", side: s, index: 0 });
      el("title", {}, node).textContent = "Deployment zone of " + (side.name || side.id);
    });
    (this.state.terrain || []).forEach(function (piece, i) {
      var known = self.data.palette.indexOf(piece.kind) >= 0 ? piece.kind : "other";
      var node = mark(el("polygon", { "class": "terrain terrain-" + known, points: pts(piece.polygon) }, svg),
                      { kind: "terrain", index: i });
      el("title", {}, node).textContent = piece.id + ": " + piece.kind;
      if (piece.polygon && piece.polygon.length) { labels.push([centroid(piece.polygon), piece.id, ""]); }
    });
    (this.state.buildings || []).forEach(function (piece, i) {
      var node = mark(el("polygon", { "class": "building", points: pts(piece.polygon) }, svg), { kind: "building", index: i });
      el("title", {}, node).textContent = ((piece.card || {}).name || "Building") + " (" + piece.id + ")";
      if (piece.polygon && piece.polygon.length) { labels.push([centroid(piece.polygon), piece.id, " building-label"]); }
    });
    (this.state.objectives || []).forEach(function (o, i) {
      if (!o.point) { return; }
      var g = mark(el("g", { "class": "objective objective-hold" }, svg), { kind: "objective", index: i });
      el("title", {}, g).textContent = "Objective " + o.id;
      el("circle", { cx: o.point[0], cy: H - o.point[1], r: Number(o.radius) || 3 }, g);
      el("circle", { "class": "objective-centre", cx: o.point[0], cy: H - o.point[1], r: 0.15 }, g);
      el("text", { "class": "objective-label", x: o.point[0], y: H - o.point[1] - 0.3 }, g).textContent = o.id;
    });
    (this.state.sides || []).forEach(function (side, s) {
      (side.units || []).forEach(function (u, i) {
        if (!u.position) { return; }
        var g = mark(el("g", { "class": "editor-spot side-" + s, transform: "translate(" + num(u.position[0]) + " " + num(H - u.position[1]) + ")" }, svg),
                     { kind: "spot", side: s, index: i });
        el("title", {}, g).textContent = "Deployment spot of " + (side.name || side.id);
        el("circle", { r: 0.45 }, g);
        el("text", { "class": "unit-size", dy: 0.17 }, g).textContent = String(s + 1);
      });
    });
    var layer = el("g", { "class": "labels-layer", "aria-hidden": "true" }, svg);
    labels.forEach(function (l) {
      el("text", { "class": "terrain-label" + l[2], x: num(l[0][0]), y: num(H - l[0][1]) }, layer).textContent = l[1];
    });
    // Problems, pinned to their pieces.
    var pins = el("g", { "class": "problem-pins", "aria-hidden": "true" }, svg);
    this.problems.forEach(function (p, n) {
      var at = self.pinPoint(p);
      if (!at) { return; }
      var g = el("g", { "class": "problem-pin", transform: "translate(" + num(at[0]) + " " + num(H - at[1]) + ")" }, pins);
      el("circle", { r: 0.42 }, g);
      el("text", { dy: 0.17 }, g).textContent = String(n + 1);
    });
    var piece = this.piece();
    if (piece && piece.polygon) {
      var handles = el("g", { "class": "handles" }, svg);
      piece.polygon.forEach(function (p, j) {
        el("circle", { "class": "handle", "data-corner": j, cx: p[0], cy: H - p[1], r: 0.32 }, handles);
      });
    }
  };

  Editor.prototype.pinPoint = function (problem) {
    var at = problem.piece;
    if (!at) { return null; }
    var piece = this.piece(at);
    if (!piece) { return null; }
    if (piece.polygon && at.corner !== undefined && piece.polygon[at.corner]) { return piece.polygon[at.corner]; }
    if (piece.polygon && piece.polygon.length) { return centroid(piece.polygon); }
    return piece.point || piece.position || null;
  };

  Editor.prototype.label = function (sel) {
    var piece = this.piece(sel);
    if (!piece) { return ""; }
    if (sel.kind === "terrain") { return piece.id + " (" + piece.kind + ")"; }
    if (sel.kind === "building") { return piece.id + " (" + ((piece.card || {}).name || "building") + ")"; }
    if (sel.kind === "objective") { return "objective " + piece.id; }
    var side = this.state.sides[sel.side];
    if (sel.kind === "zone") { return "deployment zone of " + (side.name || side.id); }
    return "spot " + (sel.index + 1) + " of " + (side.name || side.id);
  };

  Editor.prototype.all = function () {
    var s = this.state;
    var out = [];
    (s.terrain || []).forEach(function (p, i) { out.push({ kind: "terrain", index: i }); });
    (s.buildings || []).forEach(function (p, i) { out.push({ kind: "building", index: i }); });
    (s.objectives || []).forEach(function (p, i) { out.push({ kind: "objective", index: i }); });
    (s.sides || []).forEach(function (side, si) {
      if (side.zone) { out.push({ kind: "zone", side: si, index: 0 }); }
      (side.units || []).forEach(function (u, i) { out.push({ kind: "spot", side: si, index: i }); });
    });
    return out;
  };

  Editor.prototype.drawList = function () {
    var self = this;
    this.list.textContent = "";
    this.all().forEach(function (sel) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = self.label(sel) + (self.problemsOf(sel).length ? " ⚠" : "");
      var chosen = self.selected && self.selected.kind === sel.kind && self.selected.index === sel.index && self.selected.side === sel.side;
      button.setAttribute("aria-pressed", chosen ? "true" : "false");
      button.addEventListener("click", function () { self.select(sel); });
      item.appendChild(button);
      self.list.appendChild(item);
    });
  };

  function field(label, value, onchange, attrs) {
    var wrap = document.createElement("label");
    wrap.className = "editor-field";
    wrap.appendChild(document.createTextNode(label + " "));
    var input = document.createElement(attrs && attrs.options ? "select" : "input");
    if (attrs && attrs.options) {
      attrs.options.forEach(function (o) {
        var option = document.createElement("option");
        option.value = o[0]; option.textContent = o[1];
        if (String(o[0]) === String(value)) { option.selected = true; }
        input.appendChild(option);
      });
    } else {
      input.type = (attrs && attrs.type) || "number";
      input.step = (attrs && attrs.step) || "0.5";
      input.value = value;
    }
    input.addEventListener("change", function () { onchange(input.value); });
    wrap.appendChild(input);
    return wrap;
  }

  Editor.prototype.drawPanel = function () {
    var self = this;
    var panel = this.panel;
    panel.textContent = "";
    var sel = this.selected;
    var piece = this.piece();
    var heading = document.createElement("h3");
    heading.textContent = piece ? this.label(sel) : "Nothing selected";
    panel.appendChild(heading);
    if (!piece) {
      var help = document.createElement("p");
      help.className = "help";
      help.textContent = "Pick a piece on the map or in the list. Arrow keys move it half an inch; Delete removes it; Ctrl+Z undoes.";
      panel.appendChild(help);
      return;
    }
    function edit(mutate) {
      return function (value) { self.remember(); mutate(value); self.changed(true); };
    }
    this.problemsOf(sel).forEach(function (p) {
      var note = document.createElement("p");
      note.className = "field-errors";
      note.textContent = p.reason;
      panel.appendChild(note);
    });
    if (piece.polygon) {
      var corners = document.createElement("ol");
      corners.className = "corners";
      piece.polygon.forEach(function (p, j) {
        var li = document.createElement("li");
        li.appendChild(field("x", p[0], edit(function (v) { piece.polygon[j][0] = Number(v); })));
        li.appendChild(field("y", p[1], edit(function (v) { piece.polygon[j][1] = Number(v); })));
        var drop = document.createElement("button");
        drop.type = "button"; drop.textContent = "Remove corner";
        drop.addEventListener("click", edit(function () { piece.polygon.splice(j, 1); }));
        li.appendChild(drop);
        corners.appendChild(li);
      });
      panel.appendChild(corners);
      var add = document.createElement("button");
      add.type = "button"; add.textContent = "Add a corner";
      add.addEventListener("click", edit(function () {
        var a = piece.polygon[piece.polygon.length - 1], b = piece.polygon[0];
        piece.polygon.push([self.round((a[0] + b[0]) / 2), self.round((a[1] + b[1]) / 2)]);
      }));
      panel.appendChild(add);
    }
    if (sel.kind === "terrain") {
      panel.appendChild(field("Kind", piece.kind, edit(function (v) { piece.kind = v; }),
        { options: this.data.palette.map(function (k) { return [k, k]; }) }));
    }
    if (sel.kind === "objective") {
      var sides = (this.state.sides || []).map(function (s) { return [s.id, s.name || s.id]; });
      panel.appendChild(field("x", piece.point[0], edit(function (v) { piece.point[0] = Number(v); })));
      panel.appendChild(field("y", piece.point[1], edit(function (v) { piece.point[1] = Number(v); })));
      panel.appendChild(field("Radius", piece.radius, edit(function (v) { piece.radius = Number(v); })));
      panel.appendChild(field("Held by", (piece.sides || [])[0], edit(function (v) { piece.sides = [v]; }),
        { options: sides }));
      panel.appendChild(field("Points a turn", piece.points_per_turn, edit(function (v) { piece.points_per_turn = parseInt(v, 10); }), { step: "1" }));
      panel.appendChild(field("Points at the end", piece.points_at_end, edit(function (v) { piece.points_at_end = parseInt(v, 10); }), { step: "1" }));
    }
    if (sel.kind === "spot") {
      panel.appendChild(field("x", piece.position[0], edit(function (v) { piece.position[0] = Number(v); })));
      panel.appendChild(field("y", piece.position[1], edit(function (v) { piece.position[1] = Number(v); })));
    }
    var remove = document.createElement("button");
    remove.type = "button"; remove.textContent = "Remove " + piece.id;
    remove.addEventListener("click", function () { self.remove(); });
    panel.appendChild(remove);
  };

  Editor.prototype.select = function (sel) {
    this.selected = sel;
    this.draw();
    this.drawList();
    this.drawPanel();
    this.svg.focus();
  };

  Editor.prototype.say = function (message) { this.status.textContent = message; };

  // --- the live check ----------------------------------------------------------------------

  Editor.prototype.scheduleCheck = function () {
    var self = this;
    clearTimeout(this.timer);
    this.timer = setTimeout(function () { self.check(); }, CHECK_MS);
  };

  Editor.prototype.check = function () {
    var self = this;
    var serial = ++this.serial;
    var token = this.form.querySelector("[name=csrfmiddlewaretoken]").value;
    fetch(this.checkUrl, { method: "POST", body: JSON.stringify(this.state), credentials: "same-origin",
                           headers: { "Content-Type": "application/json", "X-CSRFToken": token } })
      .then(function (response) {
        // 400: the check could not read the map as a map (too long a drawing); it says why.
        if (!response.ok && response.status !== 400) { throw new Error("the check answered " + response.status); }
        return response.json();
      })
      .then(function (answer) {
        if (serial !== self.serial) { return; }
        self.problems = answer.problems;
        self.draw();
        self.drawList();
        self.drawPanel();
        self.drawProblems();
      })
      .catch(function (error) { self.say("The map could not be checked now (" + error.message + ")."); });
  };

  Editor.prototype.drawProblems = function () {
    var self = this;
    var box = this.problemsBox;
    box.textContent = "";
    var heading = document.createElement("p");
    heading.className = this.problems.length ? "problems-heading bad" : "problems-heading ok";
    heading.textContent = this.problems.length
      ? this.problems.length + (this.problems.length === 1 ? " problem" : " problems") + " before the map can be used:"
      : "The engine accepts this map.";
    box.appendChild(heading);
    if (!this.problems.length) { return; }
    var list = document.createElement("ol");
    this.problems.forEach(function (p) {
      var li = document.createElement("li");
      var where = p.piece && self.piece(p.piece) ? self.label(p.piece) : placeWords(p.path);
      if (p.piece && p.piece.kind === "side" && self.state.sides && self.state.sides[p.piece.index]) {
        var side = self.state.sides[p.piece.index];
        where = "Side " + (p.piece.index + 1) + " (" + (side.name || side.id) + ")";
      }
      if (p.piece && p.piece.corner !== undefined) { where += ", corner " + (p.piece.corner + 1); }
      if (p.piece && self.piece(p.piece)) {
        var button = document.createElement("button");
        button.type = "button";
        button.textContent = where;
        button.addEventListener("click", function () { self.select(p.piece); });
        li.appendChild(button);
        li.appendChild(document.createTextNode(": " + p.reason));
      } else {
        li.textContent = where + ": " + p.reason;
      }
      list.appendChild(li);
    });
    box.appendChild(list);
  };

  // --- input ---------------------------------------------------------------------------

  Editor.prototype.at = function (event) {
    var point = this.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    var local = point.matrixTransform(this.svg.getScreenCTM().inverse());
    return [local.x, this.table().height - local.y];
  };

  Editor.prototype.pick = function (target) {
    var node = target.closest("[data-piece]");
    if (!node) { return null; }
    var parts = node.getAttribute("data-piece").split(":");
    return parts[0] === "spot" || parts[0] === "zone"
      ? { kind: parts[0], side: Number(parts[1]), index: Number(parts[2]) }
      : { kind: parts[0], index: Number(parts[1]) };
  };

  Editor.prototype.bind = function () {
    var self = this;
    var drag = null;
    this.svg.addEventListener("pointerdown", function (event) {
      var corner = event.target.getAttribute("data-corner");
      var sel = corner !== null ? self.selected : self.pick(event.target);
      if (!sel) { self.select(null); return; }
      if (corner === null) { self.selected = sel; }
      drag = { sel: sel, corner: corner === null ? null : Number(corner), from: JSON.parse(JSON.stringify(self.piece(sel))),
               start: self.at(event), before: JSON.stringify(self.state), moved: false };
      self.svg.setPointerCapture(event.pointerId);
      event.preventDefault();
      self.draw();
    });
    this.svg.addEventListener("pointermove", function (event) {
      if (!drag) { return; }
      var now = self.at(event);
      drag.moved = true;
      self.shift(drag.sel, now[0] - drag.start[0], now[1] - drag.start[1], drag.corner, drag.from);
      self.draw();
    });
    function drop() {
      if (!drag) { return; }
      var done = drag;
      drag = null;
      if (done.moved && done.before !== JSON.stringify(self.state)) {
        self.undoStack.push(done.before);
        self.changed(true);
      } else {
        self.select(done.sel);
      }
    }
    this.svg.addEventListener("pointerup", drop);
    this.svg.addEventListener("pointercancel", drop);
    this.svg.addEventListener("keydown", function (event) {
      var steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
      if (steps[event.key] && self.piece()) {
        event.preventDefault();
        self.remember();
        self.shift(self.selected, steps[event.key][0] * self.snap, steps[event.key][1] * self.snap, null, null);
        self.changed(true);
      } else if ((event.key === "Delete" || event.key === "Backspace") && self.piece()) {
        event.preventDefault();
        self.remove();
      }
    });
    this.box.addEventListener("keydown", function (event) {
      if ((event.ctrlKey || event.metaKey) && event.key === "z") { event.preventDefault(); self.undo(); }
    });
    this.box.querySelectorAll("[data-add-terrain]").forEach(function (button) {
      button.addEventListener("click", function () { self.addTerrain(button.getAttribute("data-add-terrain")); });
    });
    this.box.querySelector("[data-add-building]").addEventListener("click", function () {
      self.addBuilding(self.box.querySelector("[data-building-choice]").value);
    });
    this.box.querySelector("[data-add-objective]").addEventListener("click", function () { self.addObjective(); });
    this.box.querySelectorAll("[data-add-zone]").forEach(function (button) {
      button.addEventListener("click", function () { self.addZone(Number(button.getAttribute("data-add-zone"))); });
    });
    this.box.querySelectorAll("[data-add-spot]").forEach(function (button) {
      button.addEventListener("click", function () { self.addSpot(Number(button.getAttribute("data-add-spot"))); });
    });
    this.box.querySelector("[data-undo]").addEventListener("click", function () { self.undo(); });
    ["width", "height"].forEach(function (key) {
      var input = self.box.querySelector("[data-table=" + key + "]");
      input.value = self.table()[key];
      input.addEventListener("change", function () {
        self.remember();
        self.state.table = self.state.table || {};
        self.state.table[key] = self.round(Number(input.value));
        self.changed(true);
      });
    });
    var name = this.form.querySelector("[name=name]");
    name.addEventListener("change", function () {
      // The map's name is the scenario's too (what the set-up page and the battle list say).
      if (name.value.trim()) { self.state.name = name.value.trim(); } else { delete self.state.name; }
      self.changed(true);
    });
    var turns = this.box.querySelector("[data-turn-limit]");
    turns.value = this.state.turn_limit;
    turns.addEventListener("change", function () {
      self.remember(); self.state.turn_limit = parseInt(turns.value, 10); self.changed(true);
    });
    this.box.querySelectorAll("[data-side-name]").forEach(function (input) {
      var side = self.state.sides[Number(input.getAttribute("data-side-name"))];
      input.value = side.name || side.id;
      input.addEventListener("change", function () { self.remember(); side.name = input.value; self.changed(true); });
    });
    this.box.querySelector("[data-export]").addEventListener("click", function () {
      var name = (self.form.querySelector("[name=name]").value || "map").replace(/[^A-Za-z0-9]+/g, "-");
      var link = document.createElement("a");
      link.href = URL.createObjectURL(new Blob([JSON.stringify(self.state, null, 1)], { type: "application/json" }));
      link.download = name + ".json";
      document.body.appendChild(link);
      link.click();
      link.remove();
      self.say("Exported " + link.download + ".");
    });
    this.box.querySelector("[data-import]").addEventListener("change", function (event) {
      var file = event.target.files[0];
      if (!file) { return; }
      file.text().then(function (text) {
        var read = mapFileRead(text, self.data.exports);
        if (read.why) { self.say(read.why + " The editor keeps the map it had."); return; }
        self.remember();
        self.keepField = false;
        self.state = read.map;
        self.selected = null;
        self.changed(true);
        self.say("Imported " + file.name + ".");
      });
    });
    this.field.addEventListener("change", function () {
      var read = mapFileRead(self.field.value, self.data.exports, "The JSON field");
      if (read.why) { self.say(read.why + " The editor keeps the last map it could draw."); return; }
      self.keepField = false;
      self.remember(); self.state = read.map; self.changed(true);
    });
  };

  function start() {
    document.querySelectorAll("[data-map-editor]").forEach(function (box) {
      var data = JSON.parse(document.getElementById(box.getAttribute("data-editor-data")).textContent);
      box.hidden = false;
      // The drawn editor replaces the numbers form, which is for pages without JavaScript, and
      // the page's words follow: the editor's shown, the numbers' hidden.
      document.querySelectorAll("[data-map-numbers]").forEach(function (numbers) { numbers.hidden = true; });
      document.querySelectorAll("[data-map-editor-text]").forEach(function (words) { words.hidden = false; });
      box.editor = new Editor(box, data);
    });
  }

  if (typeof document === "undefined") {
    // Loaded outside a browser (the tests read files with it): nothing to start.
    module.exports = { mapFileRead: mapFileRead };
    return;
  }
  document.addEventListener("DOMContentLoaded", start);
})();
