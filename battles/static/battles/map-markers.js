/*
 * How a map draws its units' markers where they are close, shared by the battle replay
 * (replay.js) and the set-up's deployment map (campaign/deploy.js). Loaded before them; under
 * Node (the tests) its functions are the module's exports.
 */
(function (root) {
  "use strict";

  // How far apart two markers on the same ground are drawn, as a share of their radii summed
  // (spreadMarkers).
  var CONTACT = 0.75;

  // How much larger than its inches the map draws a unit's marker: the stylesheet's
  // --marker-scale (1.3 on a phone), read again whenever the map is drawn.
  function markerScale(svg) {
    return parseFloat(getComputedStyle(svg).getPropertyValue("--marker-scale")) || 1;
  }

  // A unit's marker's radius as drawn, in the map's inches: its Size's (battles.table's
  // unit_radius) at the marker scale the map is drawn at. Markers are spread, named and tapped
  // by this radius, the circle seen, not by the smaller one of its inches.
  function drawnRadius(info, scale) {
    return (info.r || 0) * scale;
  }

  // Where each marker is drawn, in the map's inches: where its unit stands, unless it lies
  // over more than a quarter of a marker drawn before it (the units of an assault in contact
  // share ground: the demo's Tiger One ended hidden whole under Old Faithful). Then it is drawn
  // moved straight off that marker's centre (to the right, if on it) until their centres are
  // three quarters of their radii apart: each unit's circle and number are seen, a finger
  // reaches each, and the two still touch. A unit out of the battle (faded) moves nobody and
  // is not moved. markers: [{x, y, r, faint}] in the order drawn; gives [[x, y]...] alike.
  function spreadMarkers(markers) {
    var placed = [];
    return markers.map(function (m) {
      var x = m.x, y = m.y;
      if (!m.faint) {
        for (var pass = 0; pass < 3; pass++) {
          var moved = false;
          placed.forEach(function (p) {
            var reach = CONTACT * (m.r + p.r);
            var dx = x - p.x, dy = y - p.y;
            var d = Math.sqrt(dx * dx + dy * dy);
            if (d >= reach - 1e-9) { return; }
            if (d < 1e-6) { dx = 1; dy = 0; d = 1; }
            x = p.x + dx / d * reach;
            y = p.y + dy / d * reach;
            moved = true;
          });
          if (!moved) { break; }
        }
        placed.push({ x: x, y: y, r: m.r });
      }
      return [Math.round(x * 1000) / 1000, Math.round(y * 1000) / 1000];
    });
  }

  var exported = { CONTACT: CONTACT, markerScale: markerScale, drawnRadius: drawnRadius,
                   spreadMarkers: spreadMarkers };
  if (typeof module !== "undefined" && module.exports) { module.exports = exported; }
  else { root.mapMarkers = exported; }
})(this);
