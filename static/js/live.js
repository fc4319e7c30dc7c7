// Live pages (tournaments/live.py): each [data-live] element has htmx fetch its page again
// every few seconds and swap in what changed. This file makes an unchanged poll cheap and a
// poll harmless while someone is typing:
// - A poll sends the ETag of the answer last swapped in (If-None-Match, set here: htmx sends
//   none of its own), so the server answers 304 with no body after one query. htmx 2 swaps every
//   2xx and 3xx answer but 204 (its default responseHandling), so a 304's empty body would wipe
//   the region: a 304 is told not to swap, and the region stays as it is. The first poll
//   after the page loaded sends the ETag the page was drawn with (the element's data-etag),
//   so it too is a 304 while nothing changed.
// - No poll while a form inside the region is being filled: a field of it has focus, a field
//   was changed since the region was drawn, or a <details> holding a form is open (the undo
//   and the card-points entry). The regions of the read-only pages hold no form to fill.
(function () {
  var etags = {};  // a live element's id -> the ETag of the answer it shows

  // The live element that sent the request: a swap's own `elt` is its target, which is not the
  // live element when that has an hx-target (the match page's #match-entry swaps #match-panel).
  function live(event) {
    var config = event.detail && event.detail.requestConfig;
    var elt = (config && config.elt) || (event.detail && event.detail.elt);
    return elt && elt.hasAttribute && elt.hasAttribute("data-live") ? elt : null;
  }

  function target(elt) {
    var selector = elt.getAttribute("hx-target");
    return (selector && document.querySelector(selector)) || elt;
  }

  function beingFilled(region) {
    var active = document.activeElement;
    if (active && region.contains(active) && active.closest("form")) return true;
    return region.querySelector("form[data-live-dirty], details[open] form, details[open][hx-get]") !== null;
  }

  document.addEventListener("input", function (event) {
    var form = event.target.closest && event.target.closest("form");
    if (form) form.setAttribute("data-live-dirty", "");
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = live(event);
    if (elt && beingFilled(target(elt))) event.preventDefault();
  });

  document.addEventListener("htmx:configRequest", function (event) {
    var elt = live(event);
    if (!elt) return;
    var etag = etags[elt.id] || elt.getAttribute("data-etag");
    if (etag) event.detail.headers["If-None-Match"] = etag;
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var elt = live(event);
    if (!elt) return;
    var xhr = event.detail.xhr;
    if (xhr.status === 304) {
      event.detail.shouldSwap = false;
      return;
    }
    if (xhr.status === 200 && xhr.getResponseHeader("ETag")) {
      etags[elt.id] = xhr.getResponseHeader("ETag");
    }
  });
})();
