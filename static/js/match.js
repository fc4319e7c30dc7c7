// The deal-entry page.
(function () {
  var entry = function () { return document.getElementById("match-entry"); };
  var inEntry = function (element) {
    return element && element.closest && element.closest("#match-entry");
  };

  // A 409 (the match changed meanwhile) or 422 (a bad deal) answer carries the panel with its
  // message, so htmx swaps it in like a success instead of dropping it.
  var refused = false;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (!inEntry(event.target)) return;
    refused = status === 409 || status === 422;
    if (refused) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  // The card-points form keeps what was typed whichever button is pressed. Its own Save sends
  // the values and a refused save comes back with them; any other request of the page (undo,
  // a correction) redraws the panel without them, so they are kept here and typed back in
  // when the form is there again (it is loaded when its section opens).
  var SKIP = { csrfmiddlewaretoken: true, "details-number": true };
  var kept = null;
  var detailsForm = function () {
    var root = entry();
    return root && root.querySelector("details.details-entry form");
  };
  var typed = function (form) {
    var values = [];
    Array.prototype.forEach.call(form.elements, function (field) {
      if (!field.name || SKIP[field.name] || field.type === "hidden") return;
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.checked) values.push([field.name, field.value, true]);
      } else if (field.tagName === "SELECT" ? field.selectedIndex > 0 || (field.value && field.value !== "0") : field.value !== "") {
        values.push([field.name, field.value, false]);
      }
    });
    return values.length ? values : null;
  };
  var typeBack = function (form, values) {
    values.forEach(function (item) {
      var fields = form.querySelectorAll('[name="' + item[0] + '"]');
      Array.prototype.forEach.call(fields, function (field) {
        if (item[2]) field.checked = field.value === item[1];
        else field.value = item[1];
      });
    });
  };
  document.addEventListener("htmx:beforeRequest", function (event) {
    var source = event.detail.elt;
    if (!inEntry(source)) return;
    var form = detailsForm();
    if (form && (form === source || form.contains(source))) {
      kept = null;  // its own save: the answer carries the values, or a fresh form after a save
    } else if (form && event.detail.requestConfig.verb !== "get") {
      kept = typed(form) || kept;
    }
  });

  // After each answer: type the kept values back; the first error in view, its field focused.
  document.addEventListener("htmx:afterSettle", function () {
    if (!entry()) return;
    if (kept) {
      var details = entry() && entry().querySelector("details.details-entry");
      var form = detailsForm();
      if (form) {
        typeBack(form, kept);
        kept = null;
        details.open = true;
      } else if (details && !details.open) {
        details.open = true;  // loads the form; this runs again when it is there
      }
    }
    if (!refused) return;
    refused = false;
    var root = entry();
    var error = root.querySelector(".errorlist, .form-errors, .message.error");
    if (error) {
      error.scrollIntoView({ block: "center" });
      var scope = error.closest("td, label, fieldset, form") || error.parentNode;
      var field = scope.querySelector("[aria-invalid=true], input:not([type=hidden]), select");
      if (field && field.focus) field.focus({ preventScroll: true });
    }
  });

  // A deal saved by htmx puts only its own change first in the history of changes
  // (match_deal_saved.html): the count in the history's heading follows the list.
  document.addEventListener("htmx:afterSettle", function () {
    var list = document.getElementById("history-list");
    var count = document.getElementById("history-count");
    if (list && count) count.textContent = String(list.children.length);
  });

  // A poll redraws the panel as anyone sees it, without the "Deal N saved." notice in the
  // score (static/js/site.js takes it away at the next thing done): while no other deal has
  // come since (the same next deal), the notice is put back, so the poll does not take it.
  var notice = null;
  document.addEventListener("htmx:beforeSwap", function (event) {
    var source = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (!source || source !== entry() || event.detail.xhr.status !== 200) return;  // a poll that redraws
    notice = entry().querySelector(".board-notice");
    var state = notice && notice.closest(".match-state");
    if (notice) notice.setAttribute("data-next", state.getAttribute("data-next"));
  });
  document.addEventListener("htmx:afterSettle", function () {
    var kept = notice;
    notice = null;
    var state = kept && entry() && entry().querySelector(".match-state");
    if (!state || state.querySelector(".board-notice")) return;
    if (state.getAttribute("data-next") !== kept.getAttribute("data-next")) return;
    state.insertBefore(kept, state.querySelector(".target"));
  });

  // After a deal is saved, the next deal's first question (who won) is not left under the
  // sticky score: the page scrolls back just enough to show it whole.
  document.addEventListener("htmx:afterSettle", function (event) {
    var config = event.detail.requestConfig;
    if (!entry() || !config || config.verb !== "post" || event.detail.xhr.status !== 200) return;
    var board = entry().querySelector(".scoreboard");
    var first = entry().querySelector("fieldset.pick-winner");
    if (!board || !first) return;
    var hidden = board.getBoundingClientRect().bottom - first.getBoundingClientRect().top;
    if (hidden > 0) window.scrollBy(0, -(hidden + 8));
  });
})();
