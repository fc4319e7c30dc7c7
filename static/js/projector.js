// The projector (live/templates/live/projector.html): one slide at a time, the next every
// `data-every` seconds of <body> (a clock of this screen: nothing is asked of the server). The
// slides are swapped by the live region (static/js/live.js)
// when the event changes; the slide on show stays on show across a swap.
(function () {
  var shown = 0;

  function show() {
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
