/*
 * The set-up's scenario choice (templates/campaign/battle_setup.html): a scenario picked with
 * the pointer, or from the list opened and closed with Enter, redraws the set-up below at once
 * (htmx, the form's hx-get). Arrowed through with the keyboard, the closed list changes at each
 * press: the set-up is not redrawn at each one, which lost the GM's place and said nothing. The
 * status beside the list says which scenario Enter or Choose would show, and then that the
 * set-up shows it.
 */
(function () {
  "use strict";

  var MOVES = { ArrowUp: 1, ArrowDown: 1, ArrowLeft: 1, ArrowRight: 1, Home: 1, End: 1,
                PageUp: 1, PageDown: 1 };

  function start(form) {
    var select = form.querySelector("select[name=scenario]");
    var said = form.querySelector("[data-scenario-said]");
    if (form.scenarioPick || !select || !said) { return; }
    form.scenarioPick = true;
    var shown = select.value; // the scenario the set-up below shows, or is asked to
    var keyed = false; // the next change comes from a key that moves through the closed list
    function name() {
      return select.selectedIndex < 0 ? "" : select.options[select.selectedIndex].text;
    }
    function choose() {
      if (select.value !== shown) { form.requestSubmit(); }
    }
    form.addEventListener("submit", function () { shown = select.value; });
    select.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        keyed = false;
        choose();
        return;
      }
      keyed = !event.altKey && (MOVES[event.key] === 1 || (event.key.length === 1 && event.key !== " "));
    });
    select.addEventListener("pointerdown", function () { keyed = false; });
    select.addEventListener("change", function () {
      if (keyed) {
        keyed = false;
        said.textContent = select.value === shown ? "" : "Enter or Choose shows " + name() + ".";
        return;
      }
      choose();
    });
    form.addEventListener("htmx:afterRequest", function (event) {
      said.textContent = event.detail.successful
        ? "The set-up shows " + name() + "."
        : name() + " could not be shown now; Choose tries again.";
      if (!event.detail.successful) { shown = ""; return; }
      // The list, as htmx keeps the page for the browser's Back, names the scenario it shows.
      Array.prototype.forEach.call(select.options, function (option) {
        option.defaultSelected = option.value === shown;
      });
    });
  }

  function startIn(root) {
    var forms = Array.prototype.slice.call(root.querySelectorAll("form[data-scenario-pick]"));
    if (root.matches && root.matches("form[data-scenario-pick]")) { forms.push(root); }
    forms.forEach(start);
  }

  // On the page as it comes, and as htmx puts it back (the browser's Back, hx-push-url).
  document.addEventListener("DOMContentLoaded", function () { startIn(document); });
  document.addEventListener("htmx:load", function (event) { startIn(event.target); });
})();
