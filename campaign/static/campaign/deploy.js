/*
 * Deployment on the set-up map: the campaign's units (drawn by the server from the form's
 * table, templates/campaign/_deploy_layer.html) are picked by a press on or beside them (the
 * replay's choice, battles/map-tap.js, loaded first) and dragged, or moved with the arrow keys, in
 * half-inch steps, and snap onto a deployment spot of their side when dropped near one; Enter or
 * Space on a unit takes the keyboard to its x box in the table. The
 * numeric table follows the map and the map follows the table; close units are drawn spread
 * apart as the replay draws them (battles/map-markers.js), while the table keeps their
 * positions as entered. Every move is checked by the
 * server with the engine's own validator (the set-up's check URL); a position it refuses
 * (outside the side's deployment zone, in terrain or a building the unit may not stand in, off
 * the table) is undone on the spot and the reason shown beside the unit. Without JavaScript the table does it all.
 */
(function () {
  "use strict";

  var SPOT_PULL = 0.75; // inches: a drop this close to a spot of its side lands on the spot

  function round(value, step) {
    return Math.round(value / step) * step;
  }

  function text(value) {
    return String(Math.round(value * 1000) / 1000);
  }

  function Deployment(form) {
    this.form = form;
    this.box = form.querySelector("[data-deploy-map]");
    this.svg = this.box.querySelector("svg");
    this.height = parseFloat(this.box.getAttribute("data-table-height"));
    this.snap = parseFloat(this.box.getAttribute("data-snap")) || 0.5;
    this.status = this.box.querySelector(".deploy-status");
    this.url = form.getAttribute("data-deploy-check");
    this.general = form.querySelector("[data-deploy-general]");
    this.serial = 0;
    this.checkable = null;
    this.ready = Promise.resolve();
    this.scale = mapMarkers.markerScale(this.svg);
    this.drawnAt = {};
    var self = this;
    this.bindMap();
    this.box.querySelectorAll("[data-deploy-unit]").forEach(function (mark) {
      self.bindMark(mark, mark.getAttribute("data-deploy-unit"));
    });
    form.querySelectorAll("[data-deploy-row]").forEach(function (row) {
      var pk = row.getAttribute("data-deploy-row");
      row.querySelectorAll("input, select").forEach(function (input) {
        input.addEventListener("change", function () {
          self.follow(pk);
          self.check(pk, null);
        });
      });
    });
    // The battle's name, turn limit and seed are the launch's too: checked as they change, an
    // out-of-range turn limit or seed is said before Launch, in the words Launch would use.
    ["name", "turn_limit", "seed"].forEach(function (name) {
      var input = form.elements.namedItem(name);
      if (input) { input.addEventListener("change", function () { self.check(null, null); }); }
    });
    if (this.summaryLines().length) { this.baseline(); }
    this.spread(null);
    // A phone turned on its side, or a window widened, may draw the markers at another scale:
    // they are spread again as now seen.
    window.addEventListener("resize", function () {
      if (mapMarkers.markerScale(self.svg) !== self.scale) { self.spread(null); }
    });
  }

  Deployment.prototype.input = function (pk, name) {
    return this.form.querySelector('[name="' + name + "_" + pk + '"]');
  };

  Deployment.prototype.mark = function (pk) {
    return this.box.querySelector('[data-deploy-unit="' + pk + '"]');
  };

  Deployment.prototype.sideIndex = function (pk) {
    var select = this.input(pk, "side");
    return select ? select.selectedIndex - 1 : -1;
  };

  Deployment.prototype.position = function (pk) {
    var x = parseFloat(this.input(pk, "x").value);
    var y = parseFloat(this.input(pk, "y").value);
    return isFinite(x) && isFinite(y) ? { x: x, y: y } : null;
  };

  // Unit `pk` drawn at `at` (table inches; null: not on the map), and every placed unit's marker
  // spread again round it.
  Deployment.prototype.draw = function (pk, at) {
    var mark = this.mark(pk);
    if (!mark) { return; }
    var side = this.sideIndex(pk);
    mark.setAttribute("class", "deploy-unit side-" + side + (at && side >= 0 ? "" : " unplaced"));
    var key = this.box.querySelector('[data-deploy-key="' + pk + '"]');
    if (key) { key.classList.toggle("unplaced", !(at && side >= 0)); }
    this.spread(at ? { pk: pk, at: at } : null);
  };

  // Each placed unit's marker drawn where the table puts it (`moving`, {pk, at}: a unit being
  // dragged, where the drag has it), spread as the replay spreads close markers
  // (mapMarkers.spreadMarkers) by the circles as drawn at the marker scale now, in the order
  // drawn. Only the drawing moves: the table keeps each position as entered.
  Deployment.prototype.spread = function (moving) {
    var self = this;
    var height = this.height;
    var scale = mapMarkers.markerScale(this.svg);
    var marks = [];
    var markers = [];
    this.box.querySelectorAll("[data-deploy-unit]").forEach(function (mark) {
      var pk = mark.getAttribute("data-deploy-unit");
      var at = moving && moving.pk === pk ? moving.at : self.position(pk);
      var body = mark.querySelector("circle");
      if (!at || self.sideIndex(pk) < 0 || !body) { return; }
      var r = mapMarkers.drawnRadius({ r: parseFloat(body.getAttribute("r")) }, scale);
      marks.push(mark);
      markers.push({ x: at.x, y: height - at.y, r: r, faint: false });
    });
    var drawnAt = {};
    mapMarkers.spreadMarkers(markers).forEach(function (place, i) {
      var pk = marks[i].getAttribute("data-deploy-unit");
      drawnAt[pk] = { x: place[0], y: place[1], r: markers[i].r };
      marks[i].setAttribute("transform", "translate(" + text(place[0]) + " " + text(place[1]) + ")");
    });
    this.scale = scale;
    this.drawnAt = drawnAt;
  };

  // The map follows the table.
  Deployment.prototype.follow = function (pk) {
    this.draw(pk, this.position(pk));
  };

  // The table follows the map.
  Deployment.prototype.place = function (pk, at) {
    this.input(pk, "x").value = text(at.x);
    this.input(pk, "y").value = text(at.y);
    this.draw(pk, at);
  };

  // Where the event's point is in the SVG's inches (y down, as drawn).
  Deployment.prototype.svgAt = function (event) {
    var point = this.svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(this.svg.getScreenCTM().inverse());
  };

  Deployment.prototype.tableAt = function (event) {
    var local = this.svgAt(event);
    return { x: local.x, y: this.height - local.y };
  };

  Deployment.prototype.snapped = function (pk, at) {
    var side = this.sideIndex(pk);
    var best = null;
    var bestDistance = SPOT_PULL;
    var height = this.height;
    this.box.querySelectorAll('[data-spot-side="' + side + '"]').forEach(function (spot) {
      var sx = parseFloat(spot.getAttribute("cx"));
      var sy = height - parseFloat(spot.getAttribute("cy"));
      var distance = Math.hypot(sx - at.x, sy - at.y);
      if (distance <= bestDistance) { best = { x: sx, y: sy }; bestDistance = distance; }
    });
    return best || { x: round(at.x, this.snap), y: round(at.y, this.snap) };
  };

  // The placed unit a press at the event's point was meant for (mapTap.nearestUnit, map-tap.js:
  // on its circle as drawn, or within 12 CSS px of its centre, the nearest), or null.
  Deployment.prototype.pressedUnit = function (event) {
    var drawnAt = this.drawnAt;
    var placed = [];
    this.box.querySelectorAll("[data-deploy-unit]").forEach(function (mark) { // in the order drawn
      var pk = mark.getAttribute("data-deploy-unit");
      var drawn = drawnAt[pk];
      if (drawn) { placed.push({ id: pk, x: drawn.x, y: drawn.y, r: drawn.r }); }
    });
    return mapTap.nearestUnit(this.svgAt(event), placed, mapTap.reachIn(this.svg));
  };

  // A press on or beside a unit picks it (it takes the focus, for the arrow keys); dragging then
  // moves it as far as the pointer moves, and a press without a drag leaves it where it is. A
  // drag that comes back to where it started is still a move: it is placed, and said, there.
  Deployment.prototype.bindMap = function () {
    var self = this;
    // {pk, mark, from: the unit's position, grabbed: the press in inches, x, y, dragged}
    var held = null;
    this.svg.addEventListener("pointerdown", function (event) {
      var pk = self.pressedUnit(event);
      if (pk === null) { return; }
      var mark = self.mark(pk);
      held = { pk: pk, mark: mark, from: self.position(pk), grabbed: self.tableAt(event),
               x: event.clientX, y: event.clientY, dragged: false };
      mark.setPointerCapture(event.pointerId);
      mark.classList.add("dragging");
      mark.focus({ preventScroll: true });
      event.preventDefault();
    });
    // A finger pressed on or beside a unit holds it, not the page: the browser would otherwise
    // scroll the page under it and take the drag away (touch-action is not heeded on a mark
    // inside the SVG). Pressed anywhere else on the map, the finger scrolls the page as usual.
    this.svg.addEventListener("touchstart", function (event) {
      if (event.touches.length === 1 && self.pressedUnit(event.touches[0]) !== null) {
        event.preventDefault();
      }
    }, { passive: false });
    function moved(event) {
      var now = self.tableAt(event);
      return self.snapped(held.pk, { x: held.from.x + now.x - held.grabbed.x,
                                     y: held.from.y + now.y - held.grabbed.y });
    }
    function still(event) {
      return Math.abs(event.clientX - held.x) < 1 && Math.abs(event.clientY - held.y) < 1;
    }
    this.box.addEventListener("pointermove", function (event) {
      if (held === null || (!held.dragged && still(event))) { return; }
      held.dragged = true;
      self.draw(held.pk, moved(event));
    });
    this.box.addEventListener("pointerup", function (event) {
      if (held === null) { return; }
      var was = held;
      var to = was.dragged || !still(event) ? moved(event) : null;
      held = null;
      was.mark.classList.remove("dragging");
      if (to === null) { self.draw(was.pk, was.from); return; }
      self.place(was.pk, to);
      self.check(was.pk, was.from);
    });
    this.box.addEventListener("pointercancel", function () {
      if (held === null) { return; }
      held.mark.classList.remove("dragging");
      self.draw(held.pk, held.from);
      held = null;
    });
  };

  Deployment.prototype.bindMark = function (mark, pk) {
    var self = this;
    // Only now can the mark be moved: it becomes a control, and says how to move it.
    mark.setAttribute("tabindex", "0");
    mark.setAttribute("role", "button");
    mark.setAttribute("aria-label", mark.getAttribute("aria-label") +
      ": drag, or use the arrow keys, to move it; Enter or Space types its position in the table");
    mark.addEventListener("keydown", function (event) {
      // Pressed, the button takes the keyboard to the unit's x box in the table, its position
      // selected to be typed over.
      if (event.key === "Enter" || event.key === " " || event.key === "Spacebar") {
        var field = self.input(pk, "x");
        if (!field) { return; }
        event.preventDefault();
        field.focus();
        field.select();
        return;
      }
      var steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
      var step = steps[event.key];
      var from = self.position(pk);
      if (!step || !from || self.sideIndex(pk) < 0) { return; }
      event.preventDefault();
      var at = { x: round(from.x, self.snap) + step[0] * self.snap,
                 y: round(from.y, self.snap) + step[1] * self.snap };
      self.place(pk, at);
      self.check(pk, from);
    });
  };

  Deployment.prototype.say = function (message) {
    if (this.status) { this.status.textContent = message; }
  };

  // Each unit's problems beside its name in the table, which also describe its mark on the map
  // (aria-describedby), read when the keyboard comes to it. They are not a live region: the
  // status line says a move's outcome once, politely; said there and here, it was heard twice,
  // the second time cutting in.
  Deployment.prototype.show = function (problems) {
    var self = this;
    this.form.querySelectorAll("[data-deploy-problem]").forEach(function (row) {
      var pk = row.getAttribute("data-deploy-problem");
      var reasons = problems[pk] || [];
      row.hidden = reasons.length === 0;
      row.textContent = reasons.join("; ");
      var mark = self.mark(pk);
      if (mark) { mark.classList.toggle("refused", reasons.length > 0); }
    });
  };

  function words(value) {
    return value.replace(/\s+/g, " ").trim();
  }

  // What the page says of the whole set-up already, as a refused Launch drew it: each line of
  // its error summary, and each error beside the name, turn limit or seed as the check names
  // it ("Turn limit: At most 50 turns.").
  Deployment.prototype.saidAlready = function () {
    var said = {};
    this.summaryLines().forEach(function (line) {
      said[words(line.textContent)] = true;
    });
    this.form.querySelectorAll(".field").forEach(function (field) {
      var label = field.querySelector("label");
      var errors = field.querySelector(".field-errors");
      if (!label || !errors) { return; }
      var line = "";
      Array.prototype.forEach.call(errors.childNodes, function (node) {
        if (node.nodeName === "BR") { said[words(label.textContent) + ": " + words(line)] = true; line = ""; }
        else { line += node.textContent; }
      });
      said[words(label.textContent) + ": " + words(line)] = true;
    });
    return said;
  };

  // The lines of a refused Launch's error summary, as the server drew them.
  Deployment.prototype.summaryLines = function () {
    return this.form.querySelectorAll(".form-errors[role=alert] p");
  };

  // Which of a refused Launch's summary lines the check finds too, asked once as the page comes:
  // those it may later find fixed. One only Launch finds (the campaign's battle budget spent) is
  // left as it is, whatever the check says.
  Deployment.prototype.baseline = function () {
    var self = this;
    this.ready = this.ask().then(function (answer) {
      var found = {};
      (answer.general || []).forEach(function (problem) { found[words(problem)] = true; });
      self.checkable = {};
      self.summaryLines().forEach(function (line) {
        var said = words(line.textContent);
        if (found[said]) { self.checkable[said] = true; }
      });
    }).catch(function () { self.checkable = null; });
  };

  // A summary line the check found at first and finds no longer is hidden: fixed since, it is
  // not left on screen while the check says all is well. Found again, it is shown again. A
  // summary whose every line is fixed is hidden with them.
  Deployment.prototype.markFixed = function (problems) {
    var checkable = this.checkable;
    if (!checkable) { return; }
    var found = {};
    problems.forEach(function (problem) { found[words(problem)] = true; });
    this.summaryLines().forEach(function (line) {
      var said = words(line.textContent);
      if (checkable[said]) { line.hidden = !found[said]; }
    });
    this.form.querySelectorAll(".form-errors[role=alert]").forEach(function (summary) {
      var lines = Array.prototype.slice.call(summary.querySelectorAll("p"));
      if (lines.length) { summary.hidden = lines.every(function (line) { return line.hidden; }); }
    });
  };

  // The lines under the scenario's name, each side as the units on it now take it ("Red Company
  // takes the first side", "No unit is on the second side yet"): redrawn from the check's answer,
  // so a side put right is not left saying it has no unit.
  Deployment.prototype.showSides = function (lines) {
    var list = this.form.querySelector("[data-deploy-sides]");
    if (!list || !lines || !lines.length) { return; }
    var items = list.querySelectorAll("li");
    var same = items.length === lines.length && lines.every(function (line, i) {
      return items[i].textContent === line;
    });
    if (same) { return; }
    list.textContent = "";
    lines.forEach(function (line) {
      var item = document.createElement("li");
      item.textContent = line;
      list.appendChild(item);
    });
  };

  // The check's problems of the whole set-up (no unit on a side, the turn limit), a sentence
  // each, in the form's error summary; a polite status, so they are read without taking focus.
  // One the page says already (a refused Launch's) is not said again: it is heard and read once.
  Deployment.prototype.showGeneral = function (problems) {
    if (!this.general) { return; }
    this.markFixed(problems);
    var region = this.general;
    var said = this.saidAlready();
    problems = problems.filter(function (problem) { return !said[words(problem)]; });
    region.replaceChildren.apply(region, problems.map(function (problem) {
      var line = document.createElement("p");
      line.textContent = problem;
      return line;
    }));
    region.hidden = problems.length === 0;
  };

  // Ask the server (the engine's validator) about the set-up as it stands now. A move from
  // `from` that it refuses is undone, with the reason. With no unit (`pk` null: a field of the
  // whole set-up changed), its problems are shown and nothing is said of a unit.
  Deployment.prototype.ask = function () {
    return fetch(this.url, { method: "POST", body: new FormData(this.form),
                             credentials: "same-origin", headers: { "X-Requested-With": "fetch" } })
      .then(function (response) {
        if (!response.ok) { throw new Error("the check answered " + response.status); }
        return response.json();
      });
  };

  Deployment.prototype.check = function (pk, from) {
    var self = this;
    var serial = ++this.serial;
    var mark = this.mark(pk);
    var name = mark ? mark.getAttribute("data-name") : "";
    var ready = this.ready; // the summary's lines the check judges, known before it is shown
    this.ask()
      .then(function (answer) { return ready.then(function () { return answer; }); })
      .then(function (answer) {
        if (serial !== self.serial) { return; } // a later move's answer is the one to show
        var reasons = answer.units[pk] || [];
        var label = name.trim();
        if (from && reasons.length) {
          self.place(pk, from);
          self.say("Not there: " + reasons.join("; ") + ". " + label + " is back where it was.");
          var refused = {};
          refused[pk] = ["Not there: " + reasons.join("; ")];
          self.show(Object.assign({}, answer.units, refused));
          return;
        }
        self.show(answer.units);
        self.showGeneral(answer.general || []);
        self.showSides(answer.sides);
        if (pk === null) { return; }
        var at = self.position(pk);
        var said = reasons.join("; ");
        if (reasons.length) {
          // The engine's refusals and the x and y boxes' own name the unit already; others may not.
          self.say(said.indexOf(label) === 0 ? said : label + ": " + said);
        } else if (at && self.sideIndex(pk) >= 0) {
          self.say(label + " at " + text(at.x) + ", " + text(at.y) + ".");
        } else {
          self.say(label + " is not fighting.");
        }
      })
      .catch(function (error) {
        var what = pk === null ? "The set-up" : "The position";
        self.say(what + " could not be checked now (" + error.message + "); Launch checks it again.");
      });
  };

  function start(root) {
    var forms = Array.prototype.slice.call(root.querySelectorAll("form[data-deploy-check]"));
    if (root.matches && root.matches("form[data-deploy-check]")) { forms.push(root); }
    forms.forEach(function (form) {
      if (form.deployment || !form.querySelector("[data-deploy-map]")) { return; }
      form.deployment = new Deployment(form);
      // The page tells of dragging only once there is a map to drag on.
      document.querySelectorAll("[data-deploy-drag]").forEach(function (words) { words.hidden = false; });
    });
  }

  document.addEventListener("DOMContentLoaded", function () { start(document); });
  document.addEventListener("htmx:load", function (event) { start(event.target); });
})();
