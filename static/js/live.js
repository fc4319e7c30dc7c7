// Live pages (live/pages.py): the page holds one server-sent-events stream (htmx's sse
// extension, on <body>), and each [data-live] region fetches its part again when the stream
// says "changed", or swaps in the part the stream pushes ("part", to a visitor who is not
// signed in). This file adds what the extension does not:
// - No fetch while a form inside the region is being filled (a field of it has focus, a field
//   was changed since the region was drawn, or a <details> holding a form is open: the undo and
//   the card-points entry), nor while a post of the page is on its way. The region is marked
//   stale and fetched once the form is left or the post answered, if still needed. A part
//   that arrives once its form has begun to be filled (a tap on the next deal's winner while
//   the part was on its way) is not swapped in either: the region is marked stale again.
// - The control room's times since the last entry, and its idle marks, move on with this
//   screen's clock (a minute passing changes nothing on the server, so nothing is fetched).
// - Its own change is not fetched again: every answer of a live page names the version it shows
//   (X-Live-Version), and a "changed" the page shows already (a deal this very page saved) is
//   let go.
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

  // The version the page shows: the one it was drawn at (the stream's ?v=), then the newest any
  // answer named.
  var stream = document.body.getAttribute("sse-connect") || "";
  var shown = parseInt((stream.match(/[?&]v=(\d+)/) || [])[1] || "-1", 10);
  var sending = 0;  // posts of this page on their way: their answers name the new version
  document.addEventListener("htmx:afterRequest", function (event) {
    var xhr = event.detail && event.detail.xhr;
    var named = xhr && !xhr.liveHeldBack && parseInt(xhr.getResponseHeader("X-Live-Version") || "", 10);
    if (named > shown) shown = named;
    var config = event.detail && event.detail.requestConfig;
    if (config && config.verb !== "get" && sending > 0) sending -= 1;
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    var config = event.detail && event.detail.requestConfig;
    if (config && config.verb !== "get") {
      sending += 1;
      return;
    }
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-live")) return;
    var told = config && config.triggeringEvent;
    // htmx's sse extension triggers "sse:changed" with the stream's message as its detail.
    var message = told && (told.detail || told);
    var version = message && parseInt(message.data, 10);
    if (version && version <= shown) {  // this page shows it already
      event.preventDefault();
      return;
    }
    if (sending > 0 || beingFilled(target(elt))) {  // later: the post may name this change
      event.preventDefault();
      elt.setAttribute("data-live-stale", version || "");
    }
  });

  // The region's part, arrived while its form is being filled: kept out, fetched again later.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var xhr = event.detail && event.detail.xhr;
    var config = event.detail && event.detail.requestConfig;
    // The region that asked (the swap's own `elt` is its target when it names one).
    var elt = (config && config.elt) || (event.detail && event.detail.elt);
    if (!elt || !elt.hasAttribute || !elt.hasAttribute("data-live") || !xhr) return;
    if ((config && config.verb !== "get") || xhr.status !== 200 || !beingFilled(target(elt))) return;
    event.detail.shouldSwap = false;
    xhr.liveHeldBack = true;  // the page does not show this version
    elt.setAttribute("data-live-stale", xhr.getResponseHeader("X-Live-Version") || "");
  });

  // A part the stream pushes (live/pushed.py) is swapped in unless the page shows that
  // version already; while a post is on its way or a form of the region is being filled, the
  // region is marked stale instead, as a "changed" is.
  document.addEventListener("htmx:sseBeforeMessage", function (event) {
    var message = event.detail;
    if (!message || message.type !== "part") return;
    var elt = event.target;
    var version = parseInt(message.lastEventId, 10);
    if (version && version <= shown) {
      event.preventDefault();
      return;
    }
    if (sending > 0 || beingFilled(target(elt))) {
      event.preventDefault();
      elt.setAttribute("data-live-stale", version || "");
      return;
    }
    if (version > shown) shown = version;
  });

  // A stale region is fetched once no post is on its way and its form is not being filled,
  // unless what it was told of is shown by then.
  function fetchStale() {
    if (sending > 0) return;
    var stale = document.querySelectorAll("[data-live][data-live-stale]");
    Array.prototype.forEach.call(stale, function (elt) {
      if (beingFilled(target(elt))) return;
      var version = elt.getAttribute("data-live-stale");
      elt.removeAttribute("data-live-stale");
      htmx.trigger(elt, "sse:changed", { data: version || "" });
    });
  }
  document.addEventListener("focusout", function () { window.setTimeout(fetchStale, 0); });
  document.addEventListener("htmx:afterSettle", fetchStale);
  document.addEventListener("toggle", fetchStale, true);

  document.addEventListener("htmx:sseClose", function (event) {
    if (event.detail && event.detail.type === "message") window.location.reload();
  });

  // The times since the last entry ("12 minutes ago") and the idle marks, every half minute.
  var relative = window.Intl && Intl.RelativeTimeFormat
    ? new Intl.RelativeTimeFormat(document.documentElement.lang || undefined, { numeric: "auto" })
    : null;
  function tick() {
    var lists = document.querySelectorAll("ol[data-idle-after]");
    Array.prototype.forEach.call(lists, function (list) {
      var idleAfter = parseInt(list.getAttribute("data-idle-after"), 10);
      var times = list.querySelectorAll("time[data-since]");
      Array.prototype.forEach.call(times, function (time) {
        var minutes = Math.floor((Date.now() - Date.parse(time.getAttribute("datetime"))) / 60000);
        if (relative) {
          time.textContent = minutes < 1 ? list.getAttribute("data-just-now")
            : relative.format(-minutes, "minute");
        }
        var row = time.closest("[data-may-idle]");
        if (!row) return;
        var idle = minutes >= idleAfter;
        row.classList.toggle("idle", idle);
        var mark = row.querySelector(".idle-mark");
        if (mark) mark.hidden = !idle;
      });
    });
    window.setTimeout(tick, 30000);
  }
  window.setTimeout(tick, 30000);
})();
