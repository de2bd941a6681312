/*
 * A table result's form: the choices of each unit's side and of the winner name each side as
 * the GM would, as the GM types and chooses (campaign/pages.py table_side_name): the name in
 * its box, else the one force its units chosen so far come from, else its place ("First
 * side"). Without JavaScript the server names them so whenever it shows the form again.
 */
(function () {
  "use strict";

  var SIDES = ["a", "b"];

  function sideName(form, side) {
    var box = form.querySelector('[name="side_' + side + '"]');
    var typed = box ? box.value.trim() : "";
    if (typed) return typed;
    var forces = {};
    form.querySelectorAll("select[data-force]").forEach(function (select) {
      if (select.value === side) forces[select.getAttribute("data-force")] = true;
    });
    var names = Object.keys(forces);
    return names.length === 1 ? names[0] : form.getAttribute("data-place-" + side);
  }

  function rename(form) {
    var names = {};
    SIDES.forEach(function (side) {
      names[side] = sideName(form, side);
    });
    form.querySelectorAll('select[data-force], select[name="winner"]').forEach(function (select) {
      SIDES.forEach(function (side) {
        var option = select.querySelector('option[value="' + side + '"]');
        if (option) option.textContent = names[side];
      });
    });
  }

  // Listened for on the document: the form is swapped whole when the server shows it again.
  function follow(event) {
    var form = event.target.closest ? event.target.closest("form[data-table-sides]") : null;
    if (form) rename(form);
  }

  document.addEventListener("input", follow);
  document.addEventListener("change", follow);
})();
