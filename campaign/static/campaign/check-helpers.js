/*
 * A check's units helping: the unit chosen to make the check, or to lead a contest's side, is
 * not offered as helping itself (campaign/table_forms/check_fields.py helpers_field). Each box
 * names the field of the unit it helps (data-helps); the box of the unit chosen there is hidden
 * and unticked, as the GM chooses. Without JavaScript the server refuses a unit ticked as helping
 * itself, beside the boxes.
 */
(function () {
  "use strict";

  function offer(form) {
    form.querySelectorAll("input[data-helps]").forEach(function (box) {
      var lead = form.querySelector('[name="' + box.getAttribute("data-helps") + '"]');
      var itself = lead !== null && lead.value !== "" && lead.value === box.value;
      if (itself) box.checked = false;
      (box.closest("label") || box).hidden = itself;
    });
  }

  function startIn(root) {
    var forms = Array.prototype.slice.call(root.querySelectorAll("form"));
    if (root.matches && root.matches("form")) forms.push(root);
    forms.forEach(function (form) {
      if (form.querySelector("input[data-helps]")) offer(form);
    });
  }

  // Listened for on the document: a refused form is swapped whole when the server shows it.
  document.addEventListener("change", function (event) {
    var form = event.target.closest ? event.target.closest("form") : null;
    if (form && form.querySelector("input[data-helps]")) offer(form);
  });
  document.addEventListener("DOMContentLoaded", function () { startIn(document); });
  document.addEventListener("htmx:load", function (event) { startIn(event.target); });
})();
