// Live pages (live/pages.py): the page holds one server-sent-events stream (htmx's sse
// extension, on <body>), and each [data-live] region fetches its part again when the stream
// says "changed". This file adds what the extension does not:
// - No fetch while a form inside the region is being filled (a field of it has focus, a field
//   was changed since the region was drawn, or a <details> holding a form is open: the undo and
//   the card-points entry). The region is marked stale and fetched once the form is left.
// - "gone": the page may no longer be seen this way (a renewed players' link, an event made
//   private); the stream has ended and the page is loaded again, which says why.
(function () {
  function beingFilled(region) {
    var active = document.activeElement;
    if (active && region.contains(active) && active.closest("form")) return true;
    return region.querySelector("form[data-live-dirty], details[open] form, details[open][hx-get]") !== null;
  }

  function target(elt) {
    var selector = elt.getAttribute("hx-target");
    return (selector && document.querySelector(selector)) || elt;
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (form) form.setAttribute("data-live-dirty", "");
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-live")) return;
    if (event.detail.requestConfig && event.detail.requestConfig.verb !== "get") return;
    if (beingFilled(target(elt))) {
      event.preventDefault();
      elt.setAttribute("data-live-stale", "");
    }
  });

  // A stale region is fetched once its form is no longer being filled.
  function fetchStale() {
    var stale = document.querySelectorAll("[data-live][data-live-stale]");
    Array.prototype.forEach.call(stale, function (elt) {
      if (beingFilled(target(elt))) return;
      elt.removeAttribute("data-live-stale");
      htmx.trigger(elt, "sse:changed");
    });
  }
  document.addEventListener("focusout", function () { window.setTimeout(fetchStale, 0); });
  document.addEventListener("htmx:afterSettle", fetchStale);
  document.addEventListener("toggle", fetchStale, true);

  document.addEventListener("htmx:sseClose", function (event) {
    if (event.detail && event.detail.type === "message") window.location.reload();
  });
})();
