/*
 * Which unit on a map a tap was meant for, shared by the battle replay (replay.js) and the
 * set-up's deployment map (campaign/deploy.js). Loaded before them; under Node (the tests) its
 * functions are the module's exports.
 */
(function (root) {
  "use strict";

  // How far from a unit's centre a tap still reaches it, in CSS px: half the 24 px the site's
  // other tap targets are at least.
  var TAP_REACH_PX = 12;

  // Which unit a tap at `tap` was meant for: of the units whose circle the tap is on or whose
  // centre is within `reach` of it, the one whose drawn circle is nearest the tap (the one
  // drawn last, on top, if two are as near); null if none. A Size 1 circle is smaller than a
  // fingertip, so each circle is reached from at least `reach` round its centre, but never
  // over a nearer unit. tap: {x, y}; units: [{id, x, y, r}], drawn in order; all in the
  // map's inches.
  function nearestUnit(tap, units, reach) {
    var best = null;
    var bestGap = Infinity;
    units.forEach(function (unit) {
      var centre = Math.sqrt((tap.x - unit.x) * (tap.x - unit.x) + (tap.y - unit.y) * (tap.y - unit.y));
      if (centre > Math.max(unit.r, reach)) { return; }
      var gap = Math.max(0, centre - unit.r);
      if (gap <= bestGap) { best = unit.id; bestGap = gap; }
    });
    return best;
  }

  // The reach of a tap in the inches of `svg` as drawn now: TAP_REACH_PX at its scale.
  function reachIn(svg) {
    var matrix = svg.getScreenCTM();
    if (!matrix) { return 0; }
    return TAP_REACH_PX / Math.sqrt(Math.abs(matrix.a * matrix.d - matrix.b * matrix.c));
  }

  var exported = { TAP_REACH_PX: TAP_REACH_PX, nearestUnit: nearestUnit, reachIn: reachIn };
  if (typeof module !== "undefined" && module.exports) { module.exports = exported; }
  else { root.mapTap = exported; }
})(this);
