// The projector (live/templates/live/projector.html): one slide at a time, the next every
// `data-every` seconds of <body> (a clock of this screen: nothing is asked of the server). The
// slides are swapped by the live region (static/js/live.js)
// when the event changes; the slide on show stays on show across a swap.
(function () {
  var shown = 0;

  // The seating slide's rows and columns (data-rows, data-cols) as the CSS variables its grid
  // is laid out by: the site's Content-Security-Policy allows no style attribute.
  function layOut() {
    document.querySelectorAll(".slide[data-rows][data-cols]").forEach(function (slide) {
      slide.style.setProperty("--rows", slide.dataset.rows);
      slide.style.setProperty("--cols", slide.dataset.cols);
    });
  }

  function show() {
    layOut();
    var slides = document.querySelectorAll(".slides .slide");
    if (!slides.length) return;
    shown = shown % slides.length;
    slides.forEach(function (slide, index) { slide.classList.toggle("current", index === shown); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var seconds = parseInt(document.body.dataset.every, 10) || 20;
    show();
    window.setInterval(function () { shown += 1; show(); }, seconds * 1000);
  });
  document.addEventListener("htmx:afterSettle", show);
  document.addEventListener("htmx:load", show);
})();
