// The round clock (events/round_clock.py): each [data-round-clock] shows the time left until
// its `data-ends`, by this screen's own clock, once a second; from then on its `data-time-up`.
// Nothing is asked of the server: a live region swapped in brings its new end time with it.
// The control room's rows of matches still being played past their round's time
// ([data-overtime-at]) show their mark from that moment on.
(function () {
  function pad(number) { return number < 10 ? "0" + number : String(number); }

  function left(seconds) {
    var hours = Math.floor(seconds / 3600);
    var minutes = Math.floor((seconds % 3600) / 60);
    var rest = seconds % 60;
    return (hours ? hours + ":" + pad(minutes) : String(minutes)) + ":" + pad(rest);
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll("[data-round-clock]").forEach(function (clock) {
      var seconds = Math.ceil((Date.parse(clock.getAttribute("data-ends")) - now) / 1000);
      var up = !(seconds > 0);
      clock.classList.toggle("time-up", up);
      var shown = clock.querySelector(".round-clock-left");
      if (!shown) return;
      shown.textContent = up ? clock.getAttribute("data-time-up")
        : clock.getAttribute("data-left").replace("TIME", left(seconds));
    });
    document.querySelectorAll("[data-overtime-at]").forEach(function (row) {
      var over = now >= Date.parse(row.getAttribute("data-overtime-at"));
      row.classList.toggle("overtime", over);
      var mark = row.querySelector(".overtime-mark");
      if (mark) mark.hidden = !over;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    window.setInterval(tick, 1000);
  });
  document.addEventListener("htmx:afterSettle", tick);
  document.addEventListener("htmx:load", tick);
})();
