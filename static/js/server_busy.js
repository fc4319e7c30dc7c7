// When a form sent by htmx gets no answer it can use (503 from DatabaseUnavailableMiddleware
// while the database restarts, 502/504 from a proxy, or no connection at all), htmx swaps
// nothing in: the form keeps what was entered. This says so beside the form, in the page's
// language (the sentence comes from this script tag's data-message, written by base.html), so
// the organiser taps the button again; the deal number each form sends makes that safe.
// Reads (GET, e.g. the bracket's polling) stay quiet: the next poll tries again.
(function () {
  "use strict";
  var script = document.currentScript;
  var text = script ? script.getAttribute("data-message") : "";
  var BUSY = [502, 503, 504];

  function isWrite(detail) {
    var verb = detail.requestConfig && detail.requestConfig.verb;
    return Boolean(verb) && verb.toLowerCase() !== "get";
  }

  function say(elt) {
    var form = elt && elt.closest ? elt.closest("form") : null;
    if (!form || !text) return;
    var note = form.querySelector(".server-busy");
    if (!note) {
      note = document.createElement("p");
      note.className = "message error server-busy";
      note.setAttribute("role", "alert");
      form.insertBefore(note, form.firstChild);
    }
    note.textContent = text;
  }

  document.addEventListener("htmx:responseError", function (event) {
    var detail = event.detail;
    if (BUSY.indexOf(detail.xhr.status) !== -1 && isWrite(detail)) say(detail.elt);
  });
  document.addEventListener("htmx:sendError", function (event) {
    if (isWrite(event.detail)) say(event.detail.elt);
  });
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail.elt && event.detail.elt.closest
      ? event.detail.elt.closest("form") : null;
    var note = form ? form.querySelector(".server-busy") : null;
    if (note) note.remove();
  });
})();
