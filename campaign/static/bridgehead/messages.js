// What an action did ("Done: …", "Not done: …"), said at the top of the page it goes back to,
// is heard as well as seen. The message is on the page from the moment it loads (the action
// redirects to it, htmx or not), and a live region speaks only what changes after that, so
// the message takes the keyboard's focus instead: a screen reader reads it, and Tab goes on
// from it. A page opened at one of its parts (an action's "see below": #review) stays there;
// the browser moves the focus away as it goes to that part, so the message takes it after,
// once the page has loaded, without scrolling up to it. Tab then goes on from that part, where
// the reader is, not from the top of the page where the message sits: as Tab is pressed, the
// part takes the focus back (for that moment only, should no key reach it otherwise), and the
// browser moves it on from there.
document.addEventListener("DOMContentLoaded", () => {
  const said = document.querySelector(".messages[tabindex]");
  if (!said) return;
  const id = location.hash.slice(1);
  const part = id && document.getElementById(decodeURIComponent(id));
  if (!part) {
    said.focus();
    return;
  }
  const goOn = (event) => {
    if (event.key !== "Tab") return;
    if (!part.hasAttribute("tabindex")) {
      part.setAttribute("tabindex", "-1");
      part.addEventListener("blur", () => part.removeAttribute("tabindex"), { once: true });
    }
    part.focus({ preventScroll: true });
  };
  const focus = () => {
    said.focus({ preventScroll: true });
    said.addEventListener("keydown", goOn);
    said.addEventListener("blur", () => said.removeEventListener("keydown", goOn), {
      once: true,
    });
  };
  if (document.readyState === "complete") focus();
  else window.addEventListener("load", focus, { once: true });
});

// The message tells the step that loaded the page. A form sent after it and answered in place
// (htmx swaps it back refused, or a step short of done, such as another page of units) is a
// later step: the message goes as the answer comes in, so the page never shows "Done: …" from
// before above a refusal of now. A form done loads its page afresh, with its own message, and
// a part the page fetches for itself (a battle's progress) is no step of the reader's.
document.addEventListener("htmx:beforeSwap", (event) => {
  const sent = event.detail.requestConfig;
  if (!sent || sent.verb === "get" || !event.detail.shouldSwap) return;
  document.querySelectorAll(".messages").forEach((said) => said.remove());
});
