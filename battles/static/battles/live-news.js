// The news of a page that polls (a battle being fought, odds narrowing), said once by a screen
// reader: htmx swaps the polled part in anew every second, so a status line inside it is a new
// element each time, which readers either never say or say again and again. The words marked
// data-announce in what was swapped in are copied into the page's one lasting live region
// (templates/battles/_live_news.html), and only when they changed.
document.addEventListener("htmx:afterSettle", (event) => {
  const region = document.getElementById("live-news");
  const swapped = event.target;
  if (!region || !(swapped instanceof Element)) return;
  const marked = [...swapped.querySelectorAll("[data-announce]")];
  if (swapped.matches("[data-announce]")) marked.unshift(swapped);
  const news = marked.map((line) => line.textContent.replace(/\s+/g, " ").trim()).join(" ");
  if (news && news !== region.textContent) region.textContent = news;
});
