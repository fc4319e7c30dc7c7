// The projector (live/templates/live/projector.html): one slide at a time, the next every
// `data-every` seconds of <body> (a clock of this screen: nothing is asked of the server). The
// slides are swapped by the live region (static/js/live.js) when the event changes; the slide
// on show stays on show across a swap: the one of the same kind and part (data-slide,
// data-part: "standings" 2 stays "standings" 2 when the seating slide before it goes), else
// the one at its place. A presenter's clicker or the keyboard steps through them by hand
// (PageDown, →, space: the next; PageUp, ←: the one before), and the turn starts again.
(function () {
  var shown = 0;
  var shownKey = null;

  function keyOf(slide) { return slide.dataset.slide + ":" + (slide.dataset.part || ""); }

  // A slide's rows and columns (data-rows, data-cols) as the CSS variables it is laid out by:
  // the site's Content-Security-Policy allows no style attribute.
  function layOut() {
    document.querySelectorAll(".slide[data-rows]").forEach(function (slide) {
      slide.style.setProperty("--rows", slide.dataset.rows);
      if (slide.dataset.cols) slide.style.setProperty("--cols", slide.dataset.cols);
    });
  }

  function show() {
    layOut();
    var slides = Array.prototype.slice.call(document.querySelectorAll(".slides .slide"));
    if (!slides.length) return;
    var same = shownKey === null ? -1 : slides.findIndex(function (slide) {
      return keyOf(slide) === shownKey;
    });
    shown = same >= 0 ? same : shown % slides.length;
    shownKey = keyOf(slides[shown]);
    slides.forEach(function (slide, index) { slide.classList.toggle("current", index === shown); });
  }

  function step(by) {
    var slides = document.querySelectorAll(".slides .slide");
    if (slides.length) shown = (shown + by + slides.length) % slides.length;
    shownKey = null;
    show();
  }
  function next() { step(1); }

  var turn = null;
  function startTurn() {
    var seconds = parseInt(document.body.dataset.every, 10) || 20;
    if (turn !== null) window.clearInterval(turn);
    turn = window.setInterval(next, seconds * 1000);
  }
  var KEYS = { PageDown: 1, ArrowRight: 1, " ": 1, PageUp: -1, ArrowLeft: -1 };
  document.addEventListener("keydown", function (event) {
    var by = KEYS[event.key];
    if (!by || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    step(by);
    startTurn();
  });

  document.addEventListener("DOMContentLoaded", function () {
    show();
    startTurn();
  });
  // Right after a swap (before htmx settles), so that no frame shows the first slide instead.
  document.addEventListener("htmx:afterSwap", show);
  document.addEventListener("htmx:afterSettle", show);
  document.addEventListener("htmx:load", show);
})();
