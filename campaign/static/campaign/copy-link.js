// "Copy": puts an invitation's link on the clipboard, and says so on the button. Where the
// clipboard cannot be written (a page served over plain HTTP to another machine), the link is
// selected instead, for the reader to copy.
document.addEventListener("click", async (event) => {
  const button = event.target.closest("button[data-copy]");
  if (!button) return;
  const field = document.getElementById(button.dataset.copy);
  try {
    await navigator.clipboard.writeText(field.value);
    button.textContent = "Copied";
  } catch {
    field.focus();
    field.select();
    button.textContent = "Selected: copy it";
  }
});
