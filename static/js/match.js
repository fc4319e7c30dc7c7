// The deal-entry page: a 409 (the match changed meanwhile) or 422 (a bad deal) answer carries
// the panel with its message, so htmx swaps it in like a success instead of dropping it.
(function () {
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (!event.target.closest || !event.target.closest("#match-entry")) return;
    if (status === 409 || status === 422) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
