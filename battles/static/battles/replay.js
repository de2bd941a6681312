/*
 * Map replay: steps through the frames the server computed (battles/frames.py) on the table
 * SVG the server drew (templates/battles/table.html). No framework, no inline script: the frames
 * arrive through json_script, and the replay starts on page load and whenever htmx swaps a
 * report in (the battle page swaps the report in when the battle finishes).
 *
 * A frame carries only the units and buildings that changed; expand() rebuilds every frame's
 * full state once, so stepping back is as cheap as stepping forward. The markers are spread
 * and tapped by the shared battles/map-markers.js and battles/map-tap.js, loaded first.
 */
(function () {
  "use strict";

  var SVG = "http://www.w3.org/2000/svg";
  var PLAY_MS = 900;

  function expand(data) {
    var units = {};
    var buildings = {};
    return data.frames.map(function (frame) {
      Object.keys(frame.units).forEach(function (id) { units[id] = frame.units[id]; });
      Object.keys(frame.buildings).forEach(function (id) { buildings[id] = frame.buildings[id]; });
      return { frame: frame, units: Object.assign({}, units), buildings: Object.assign({}, buildings) };
    });
  }

  function svgElement(name, attributes) {
    var element = document.createElementNS(SVG, name);
    Object.keys(attributes).forEach(function (key) { element.setAttribute(key, attributes[key]); });
    return element;
  }

  function setTitle(element, text) {
    var title = element.querySelector("title");
    if (title) { title.textContent = text; }
  }

  // "1 of 1 Hit", "2 of 3 Hits": the card's Hits, counted.
  function hitsWord(hits) {
    return hits + (hits === 1 ? " Hit" : " Hits");
  }

  function Replay(box, data) {
    this.box = box;
    this.data = data;
    this.states = expand(data);
    this.index = 0;
    this.timer = null;
    this.svg = box.querySelector("svg.table-map");
    this.fire = box.querySelector('[data-layer="fire"]');
    this.paths = box.querySelector('[data-layer="paths"]');
    this.title = box.querySelector("[data-title]");
    this.scores = box.querySelector("[data-scores]");
    this.notes = box.querySelector("[data-notes]");
    this.counter = box.querySelector("[data-counter]");
    this.said = box.querySelector("[data-said]");
    this.seek = box.querySelector('[data-action="seek"]');
    this.playButton = box.querySelector('[data-action="play"]');
    this.selectedLine = box.querySelector("[data-selected]");
    this.hint = this.selectedLine ? this.selectedLine.textContent : "";
    this.selected = null;
    this.unitNodes = {};
    var self = this;
    box.querySelectorAll("[data-unit]").forEach(function (node) {
      self.unitNodes[node.getAttribute("data-unit")] = node;
      selectable(node);
    });
    this.buildingNodes = {};
    box.querySelectorAll("[data-building]").forEach(function (node) {
      self.buildingNodes[node.getAttribute("data-building")] = node;
    });
    this.seek.max = String(this.states.length - 1);
    this.speed = 1;
    this.turnPick = box.querySelector('[data-action="turn"]');
    this.speedPick = box.querySelector('[data-action="speed"]');
    this.turnStarts = turnStarts(this.states);
    this.fillTurns();
    this.bind();
    box.querySelector("[data-controls]").hidden = false;
    var jumps = box.querySelector("[data-jumps]");
    if (jumps) { jumps.hidden = false; }
    if (this.selectedLine) { this.selectedLine.hidden = false; }
    this.show(0);
  }

  // A unit's circle names it when tapped, clicked or chosen with Enter or Space: the size drawn
  // in it does not tell two units apart, and a phone has no hover to show its <title>.
  function selectable(node) {
    node.setAttribute("tabindex", "0");
    node.setAttribute("role", "button");
    node.setAttribute("aria-pressed", "false");
  }

  // The first frame of each turn (turn 0: the deployment), in order.
  function turnStarts(states) {
    var starts = [];
    states.forEach(function (state, index) {
      var turn = state.frame.turn || 0;
      if (!starts.length || starts[starts.length - 1].turn !== turn) {
        starts.push({ turn: turn, index: index });
      }
    });
    return starts;
  }

  Replay.prototype.fillTurns = function () {
    var pick = this.turnPick;
    if (!pick) { return; }
    pick.textContent = "";
    this.turnStarts.forEach(function (start, n) {
      var option = document.createElement("option");
      option.value = String(n);
      option.textContent = start.turn === 0 ? "Deployment" : "Turn " + start.turn;
      pick.appendChild(option);
    });
  };

  // Which entry of turnStarts the frame `index` belongs to.
  Replay.prototype.turnOf = function (index) {
    var n = 0;
    this.turnStarts.forEach(function (start, i) { if (start.index <= index) { n = i; } });
    return n;
  };

  Replay.prototype.bind = function () {
    var self = this;
    this.box.querySelectorAll("button[data-action]").forEach(function (button) {
      button.addEventListener("click", function () { self.act(button.getAttribute("data-action")); });
    });
    this.seek.addEventListener("input", function () {
      self.pause();
      self.show(Number(self.seek.value), "");
    });
    if (this.turnPick) {
      this.turnPick.addEventListener("change", function () {
        self.pause();
        self.show(self.turnStarts[Number(self.turnPick.value)].index, "");
      });
    }
    if (this.speedPick) {
      this.speedPick.addEventListener("change", function () {
        self.speed = Number(self.speedPick.value) || 1;
        if (self.timer) { self.pause(); self.toggle(); } // on at the new speed
      });
    }
    // One handler for the whole map: a tap on or beside a unit's circle names the unit it was
    // meant for (tappedUnit), and a tap on a unit's name far from any circle names that unit.
    // A phone's browser may move a tap onto a nearby button before it clicks, not always the
    // nearest: where the finger lifted says which unit it was meant for.
    var lifted = null;
    this.svg.addEventListener("pointerup", function (event) {
      lifted = { x: event.clientX, y: event.clientY };
    });
    this.svg.addEventListener("click", function (event) {
      var at = lifted || { x: event.clientX, y: event.clientY };
      lifted = null;
      var id = self.tappedUnit(at.x, at.y);
      var under = !id && document.elementFromPoint(at.x, at.y);
      var node = under && under.closest && under.closest("[data-unit]");
      if (node) { id = node.getAttribute("data-unit"); }
      if (id) { self.select(id); }
    });
    // A phone turned on its side, or a window widened, may draw the markers at another scale:
    // the frame is drawn again, spread and tapped as now seen.
    window.addEventListener("resize", function () {
      if (mapMarkers.markerScale(self.svg) !== self.scale) { self.show(self.index); }
    });
    // A unit reached with Tab shows its name (on a phone too): place it clear of the rest.
    this.svg.addEventListener("focusin", function () { self.declutter(); });
    this.svg.addEventListener("focusout", function () { self.declutter(); });
    this.box.addEventListener("keydown", function (event) {
      var unit = event.target.closest && event.target.closest("[data-unit]");
      if (unit && (event.key === "Enter" || event.key === " " || event.key === "Spacebar")) {
        event.preventDefault();
        self.select(unit.getAttribute("data-unit"));
        return;
      }
      if (event.key === "Escape" && self.selected) {
        self.select(self.selected);
        return;
      }
      var onSlider = event.target === self.seek;
      var onButton = event.target.tagName === "BUTTON";
      var action = null;
      if (event.key === "ArrowRight" && !onSlider) { action = "forward"; }
      else if (event.key === "ArrowLeft" && !onSlider) { action = "back"; }
      else if (event.key === "Home" && !onSlider) { action = "first"; }
      else if (event.key === "End" && !onSlider) { action = "last"; }
      else if (event.key === "PageUp") { action = "prev-turn"; }
      else if (event.key === "PageDown") { action = "next-turn"; }
      else if ((event.key === " " || event.key === "Spacebar") && !onButton) { action = "play"; }
      if (action) {
        event.preventDefault();
        self.act(action);
      }
    });
  };

  Replay.prototype.act = function (action) {
    var last = this.states.length - 1;
    if (action === "play") { this.toggle(); return; }
    this.pause();
    if (action === "first") { this.show(0, ""); }
    else if (action === "last") { this.show(last, ""); }
    else if (action === "back") { this.show(Math.max(0, this.index - 1), ""); }
    else if (action === "forward") { this.show(Math.min(last, this.index + 1), ""); }
    else if (action === "prev-turn" || action === "next-turn") {
      var n = this.turnOf(this.index);
      // Back from inside a turn goes to its start; from its start, to the turn before.
      if (action === "prev-turn") { n = this.turnStarts[n].index < this.index ? n : n - 1; }
      else { n += 1; }
      n = Math.max(0, Math.min(this.turnStarts.length - 1, n));
      this.show(this.turnStarts[n].index, "");
    }
  };

  // The unit drawn nearest a tap at (clientX, clientY) that the tap reaches (mapTap.nearestUnit
  // in map-tap.js, 12 CSS px round a unit's centre or anywhere on its circle as drawn), as
  // the frame shown draws them; null if none does. A unit out of sight is not drawn, so not
  // reached.
  Replay.prototype.tappedUnit = function (clientX, clientY) {
    var matrix = this.svg.getScreenCTM();
    if (!matrix) { return null; }
    var at = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    var data = this.data;
    var drawnAt = this.drawnAt;
    var scale = this.scale;
    var drawn = [];
    Array.prototype.forEach.call(this.svg.querySelectorAll("[data-unit]"), function (node) { // in the order drawn
      var id = node.getAttribute("data-unit");
      var at = drawnAt[id];
      var info = data.units[id];
      if (!at || !info || !info.r) { return; }
      drawn.push({ id: id, x: at[0], y: at[1], r: mapMarkers.drawnRadius(info, scale) });
    });
    return mapTap.nearestUnit({ x: at.x, y: at.y }, drawn, mapTap.reachIn(this.svg));
  };

  // Choosing the selected unit again lets it go.
  Replay.prototype.select = function (id) {
    var before = this.selected && this.unitNodes[this.selected];
    if (before) {
      before.classList.remove("selected");
      before.setAttribute("aria-pressed", "false");
    }
    this.selected = this.selected === id ? null : id;
    var node = this.selected && this.unitNodes[this.selected];
    if (node) {
      node.classList.add("selected");
      node.setAttribute("aria-pressed", "true");
    }
    this.describeSelected();
    this.declutter();
  };

  // The selected unit in the words of its hover tooltip, as of the frame shown. A live region,
  // it is rewritten only when its words change: a frame played that leaves the unit as it was
  // is not said of it again.
  Replay.prototype.describeSelected = function () {
    var line = this.selectedLine;
    if (!line) { return; }
    var node = this.selected && this.unitNodes[this.selected];
    var title = node && node.querySelector("title");
    var words = title ? "Selected: " + title.textContent : this.hint;
    if (line.textContent !== words) { line.textContent = words; }
  };

  // Paused by the reader, or come to its end, the replay says the frame it stopped at; playing,
  // it says nothing, and a screen reader is not told every frame's caption as it goes by.
  Replay.prototype.toggle = function () {
    if (this.timer) { this.pause(); this.say("Paused at "); return; }
    var self = this;
    if (this.index >= this.states.length - 1) { this.show(0); }
    this.timer = window.setInterval(function () {
      if (self.index >= self.states.length - 1) { self.pause(); self.say("Ended at "); return; }
      self.show(self.index + 1);
    }, PLAY_MS / this.speed);
    playLabel(this.playButton, true);
  };

  Replay.prototype.pause = function () {
    if (this.timer) { window.clearInterval(this.timer); }
    this.timer = null;
    playLabel(this.playButton, false);
  };

  // The play button is named for what pressing it does, Play or Pause, and is not a toggle
  // (aria-pressed) as well: a screen reader would say "Pause, pressed" of a replay playing.
  // The arrow is hidden from it, or it reads "black right-pointing triangle, Play".
  function playLabel(button, playing) {
    button.textContent = "";
    if (!playing) {
      var arrow = document.createElement("span");
      arrow.setAttribute("aria-hidden", "true");
      arrow.textContent = "▶ ";
      button.appendChild(arrow);
    }
    button.appendChild(document.createTextNode(playing ? "Pause" : "Play"));
  }

  // A unit hidden from this viewer at deployment is not in the page's drawing (fog of war):
  // it is drawn here the first time the viewer's side sees it, in the page's order of drawing
  // (battles.table.drawing_order): over every bigger unit, under every smaller one.
  Replay.prototype.addUnit = function (id, info) {
    var layer = this.svg.querySelector(".units-layer");
    if (!layer) { return null; }
    var node = svgElement("g", { "class": "unit side-" + info.side, "data-unit": id });
    node.appendChild(svgElement("title", {}));
    node.appendChild(svgElement("circle", { r: info.r }));
    var size = svgElement("text", { "class": "unit-size", dy: "0.17" });
    size.textContent = String(info.size);
    node.appendChild(size);
    var label = svgElement("text", { "class": "unit-label", y: info.r + 0.45 });
    label.textContent = info.tag || id;
    node.appendChild(label);
    selectable(node);
    var data = this.data;
    var under = Array.prototype.find.call(layer.querySelectorAll("[data-unit]"), function (other) {
      var drawn = data.units[other.getAttribute("data-unit")];
      return drawn && drawn.size < info.size;
    });
    layer.insertBefore(node, under || null);
    this.unitNodes[id] = node;
    return node;
  };

  // The frame shown, in words, politely: where the replay is and its caption, after `opening`
  // ("Paused at ").
  Replay.prototype.say = function (opening) {
    if (!this.said) { return; }
    var words = [this.title.textContent, this.scores.textContent];
    this.notes.querySelectorAll("li").forEach(function (note) { words.push(note.textContent); });
    var at = (opening ? opening + "frame " : "Frame ") + (this.index + 1) + " of " + this.states.length;
    this.said.textContent = [at].concat(words).filter(Boolean).map(function (line) {
      line = line.trim();
      return /[.!?:]$/.test(line) ? line : line + ".";
    }).join(" ");
  };

  // Frame `index` drawn; said too (say) after `opening` when one is given, as the reader stepped
  // or jumped to it, and not while the replay plays.
  Replay.prototype.show = function (index, opening) {
    var state = this.states[index];
    var frame = state.frame;
    var data = this.data;
    var self = this;
    this.index = index;
    this.scale = mapMarkers.markerScale(this.svg);
    this.drawnAt = drawnPlaces(state, data, this.scale);
    Object.keys(state.units).forEach(function (id) {
      var node = self.unitNodes[id];
      var info = data.units[id];
      var u = state.units[id];
      if (!info) { return; }
      var unseen = u[0] === null;
      if (!node && !unseen) { node = self.addUnit(id, info); }
      if (!node) { return; }
      node.classList.toggle("unseen", unseen);
      node.classList.toggle("removed", u[4] !== 0);
      node.classList.toggle("concealed", u[5] === 1);
      node.classList.toggle("active", frame.active === id);
      var at = self.drawnAt[id];
      if (at) { node.setAttribute("transform", "translate(" + at[0] + " " + at[1] + ")"); }
      // Out of sight its hits and Skill are not in the data (fog of war): it is said so only.
      var status = u[4] !== 0 ? data.left[u[4]] : u[5] === 1 ? "concealed" : "in the field";
      setTitle(node, info.name + ", " + data.sides[info.side] + ", Size " + info.size + ": " +
        (unseen ? "out of sight" : u[2] + " of " + hitsWord(info.hits) + ", Skill " + u[3] + ", " + status));
    });
    Object.keys(state.buildings).forEach(function (id) {
      var node = self.buildingNodes[id];
      var b = state.buildings[id];
      if (!node) { return; }
      node.classList.toggle("collapsed", b[1] === 1);
      setTitle(node, (data.building_names[id] || id) + ": " + (b[1] === 1 ? "collapsed" : b[0] + " of " + hitsWord(data.buildings[id])));
    });
    this.describeSelected();
    this.drawLines(frame);
    this.title.textContent = frame.title;
    this.scores.textContent = data.sides.map(function (name, i) {
      return name + " " + frame.scores[i];
    }).join(" · ");
    this.notes.textContent = "";
    frame.notes.forEach(function (note) {
      var item = document.createElement("li");
      item.textContent = note;
      self.notes.appendChild(item);
    });
    this.seek.value = String(index);
    // The slider is read as where the replay is, not as a bare number.
    this.seek.setAttribute("aria-valuetext", (index + 1) + " of " + this.states.length + ": " + frame.title);
    this.counter.textContent = (index + 1) + " / " + this.states.length;
    var focused = document.activeElement;
    this.box.querySelector('[data-action="first"]').disabled = index === 0;
    this.box.querySelector('[data-action="back"]').disabled = index === 0;
    this.box.querySelector('[data-action="forward"]').disabled = index === this.states.length - 1;
    this.box.querySelector('[data-action="last"]').disabled = index === this.states.length - 1;
    if (this.turnPick) {
      var n = this.turnOf(index);
      this.turnPick.value = String(n);
      this.box.querySelector('[data-action="prev-turn"]').disabled = index === 0;
      this.box.querySelector('[data-action="next-turn"]').disabled = n === this.turnStarts.length - 1;
    }
    // A button pressed to the end (Last frame, Turn ›) is disabled under the keyboard: the focus
    // goes to the replay, where the arrow keys and Space still work, not lost to the page.
    if (focused && focused.disabled && this.box.contains(focused)) { this.box.focus(); }
    this.declutter();
    if (typeof opening === "string") { this.say(opening); }
  };

  // Each unit seen at a frame, by id: where its marker is drawn (spreadMarkers, by the radii
  // drawn at `scale`), in the order the page draws them (battles.table.drawing_order: the
  // biggest first).
  function drawnPlaces(state, data, scale) {
    var ids = Object.keys(state.units).filter(function (id) {
      var u = state.units[id];
      return u[0] !== null && data.units[id];
    });
    ids.sort(function (a, b) { return (data.units[b].size || 0) - (data.units[a].size || 0); });
    var places = mapMarkers.spreadMarkers(ids.map(function (id) {
      var u = state.units[id];
      return { x: u[0], y: u[1], r: mapMarkers.drawnRadius(data.units[id], scale), faint: u[4] !== 0 };
    }));
    var drawn = {};
    ids.forEach(function (id, i) { drawn[id] = places[i]; });
    return drawn;
  }

  // Where a unit's name goes, and which place names it must fade: the pure part of
  // declutter(), in the map's inches. Each label tries its spots in turn (below its marker,
  // above, right, left, then a line further out) and keeps the first that meets no marker, no
  // name placed before it and no place name; failing that, the first clear of markers and
  // names, and the place names it then covers are faded. A place name a marker stands on is
  // faded too (not by a faint marker, a unit already out of the battle): the unit is what the
  // frame is about, and the place keeps its name in its tooltip and in the map's key.
  // labels: [{marker: its marker's index, spots: [rect...]}]; markers, places: [rect...].
  function placeUnitLabels(labels, markers, places) {
    function meets(a, b) { return a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2; }
    function clear(rect, others) { return others.every(function (o) { return !meets(rect, o); }); }
    var placed = [];
    var chosen = labels.map(function (label, n) {
      var others = markers.filter(function (m, i) { return i !== label.marker; });
      var spots = label.spots;
      var pick = -1;
      for (var i = 0; i < spots.length && pick < 0; i++) {
        if (clear(spots[i], others) && clear(spots[i], placed) && clear(spots[i], places)) { pick = i; }
      }
      for (var j = 0; j < spots.length && pick < 0; j++) {
        if (clear(spots[j], others) && clear(spots[j], placed)) { pick = j; }
      }
      if (pick < 0) { pick = 0; }
      placed.push(spots[pick]);
      return pick;
    });
    var standing = markers.filter(function (m) { return !m.faint; });
    var faded = places.map(function (place) { return !clear(place, placed) || !clear(place, standing); });
    return { spots: chosen, faded: faded };
  }

  // Unit names that would overlap each other, a marker or a place name move (placeUnitLabels);
  // the acting unit's and the picked one's are placed first, as they are the ones shown on a
  // phone. Only names drawn count: on a phone the others are not.
  Replay.prototype.declutter = function () {
    var self = this;
    var box = function (node) {
      var b;
      try { b = node.getBBox(); } catch (e) { return null; }
      return b.width ? { x1: b.x, y1: b.y, x2: b.x + b.width, y2: b.y + b.height } : null;
    };
    var scale = this.scale;
    var shown = [];
    Object.keys(this.unitNodes).forEach(function (id) {
      var node = self.unitNodes[id];
      var info = self.data.units[id];
      if (node.classList.contains("unseen") || !info) { return; }
      var at = (node.getAttribute("transform") || "").match(/translate\(([-\d.e]+)[ ,]+([-\d.e]+)\)/);
      if (!at) { return; }
      shown.push({ node: node, x: parseFloat(at[1]), y: parseFloat(at[2]), r: info.r || 0,
                   drawn: mapMarkers.drawnRadius(info, scale) });
    });
    var first = function (u) { return u.node.classList.contains("active") || u.node.classList.contains("selected") ? 0 : 1; };
    shown.sort(function (a, b) { return first(a) - first(b); });
    var markers = shown.map(function (u) {
      var r = u.drawn;
      return { x1: u.x - r, y1: u.y - r, x2: u.x + r, y2: u.y + r, faint: u.node.classList.contains("removed") };
    });
    var labels = [];
    var spotsOf = [];
    shown.forEach(function (u, i) {
      var label = u.node.querySelector(".unit-label");
      if (!label) { return; }
      var home = label.getAttribute("data-home-y");
      if (home === null) { home = label.getAttribute("y") || "0"; label.setAttribute("data-home-y", home); }
      label.setAttribute("x", "0");
      label.setAttribute("y", home);
      label.style.textAnchor = "middle";
      var b = box(label);
      if (!b) { return; }
      var w = b.x2 - b.x1, h = b.y2 - b.y1;
      var r = u.drawn;
      // Under its marker as drawn, the name's top (0.8 of its height over its baseline) clear of
      // it: a phone draws both larger than their inches.
      var below = Math.max(parseFloat(home) + r - u.r, r + 0.02 + h * 0.8);
      var spots = [
        [0, below, "middle"], [0, -r - 0.15, "middle"], [r + 0.15, 0.15 + h * 0.3, "start"],
        [-r - 0.15, 0.15 + h * 0.3, "end"], [0, below + h, "middle"], [0, -r - 0.15 - h, "middle"]
      ];
      spotsOf.push({ label: label, spots: spots });
      labels.push({
        marker: i,
        spots: spots.map(function (spot) {
          var left = spot[2] === "middle" ? spot[0] - w / 2 : spot[2] === "start" ? spot[0] : spot[0] - w;
          return { x1: u.x + left, x2: u.x + left + w, y1: u.y + spot[1] - h * 0.8, y2: u.y + spot[1] + h * 0.2 };
        })
      });
    });
    var names = Array.prototype.slice.call(this.svg.querySelectorAll(".terrain-label, .objective-label"));
    names.forEach(function (name) { name.classList.remove("covered"); });
    var boxes = names.map(box);
    var drawn = names.filter(function (name, i) { return boxes[i]; });
    var result = placeUnitLabels(labels, markers, boxes.filter(Boolean));
    spotsOf.forEach(function (item, i) {
      var spot = item.spots[result.spots[i]];
      item.label.setAttribute("x", String(spot[0]));
      item.label.setAttribute("y", String(spot[1]));
      item.label.style.textAnchor = spot[2];
    });
    drawn.forEach(function (name, i) { name.classList.toggle("covered", result.faded[i]); });
  };

  Replay.prototype.drawLines = function (frame) {
    var fire = this.fire;
    var paths = this.paths;
    fire.textContent = "";
    paths.textContent = "";
    frame.paths.forEach(function (path) {
      paths.appendChild(svgElement("polyline", {
        "class": "move-path",
        points: path.map(function (p) { return p[0] + "," + p[1]; }).join(" ")
      }));
    });
    frame.fire.forEach(function (shot) {
      fire.appendChild(svgElement("line", {
        "class": "shot shot-" + shot[4],
        x1: shot[0], y1: shot[1], x2: shot[2], y2: shot[3]
      }));
      fire.appendChild(svgElement("circle", {
        "class": "shot-end shot-" + shot[4], cx: shot[2], cy: shot[3], r: 0.18
      }));
    });
  };

  function start(root) {
    var scope = root && root.querySelectorAll ? root : document;
    var boxes = Array.prototype.slice.call(scope.querySelectorAll("[data-replay]"));
    if (scope.matches && scope.matches("[data-replay]")) { boxes.push(scope); }
    boxes.forEach(function (box) {
      if (box.hasAttribute("data-replay-ready")) { return; }
      var source = box.querySelector('script[type="application/json"]');
      if (!source) { return; }
      var data = JSON.parse(source.textContent);
      if (!data.frames || !data.frames.length) { return; }
      box.setAttribute("data-replay-ready", "");
      new Replay(box, data);
    });
  }

  if (typeof document === "undefined") {
    // Loaded outside a browser (the tests run the placement with fixed boxes): nothing to start.
    module.exports = { placeUnitLabels: placeUnitLabels };
    return;
  }
  document.addEventListener("DOMContentLoaded", function () { start(document); });
  document.addEventListener("htmx:load", function (event) { start(event.target); });
}());
