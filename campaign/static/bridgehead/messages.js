// What an action did ("Done: …", "Not done: …"), said at the top of the page it goes back to,
// is heard as well as seen. The message is on the page from the moment it loads (the action
// redirects to it, htmx or not), and a live region speaks only what changes after that, so
// the message takes the keyboard's focus instead: a screen reader reads it, and Tab goes on
// from it. A page opened at one of its parts (an action's "see below": #review) stays there;
// the browser moves the focus away as it goes to that part, so the message takes it after,
// once the page has loaded.
document.addEventListener("DOMContentLoaded", () => {
  const said = document.querySelector(".messages[tabindex]");
  if (!said) return;
  const part = location.hash.slice(1);
  if (!part || !document.getElementById(decodeURIComponent(part))) {
    said.focus();
    return;
  }
  const focus = () => said.focus({ preventScroll: true });
  if (document.readyState === "complete") focus();
  else window.addEventListener("load", focus, { once: true });
});
