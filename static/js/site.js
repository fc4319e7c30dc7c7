// Every page: a submit button with data-confirm asks first (the Content-Security-Policy allows no
// inline onclick handlers, so the question lives in the button's data-confirm attribute).
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-confirm]");
    if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
  });
})();

// The service worker (static/js/sw.js, served at the address in data-service-worker): the
// match pages open offline and the site installs as an app. Browsers allow it only over HTTPS
// or on localhost; elsewhere offline entry still works while the page stays open
// (static/js/offline.js). Logging out has it forget the pages it kept.
(function () {
  var script = document.currentScript;
  var address = script && script.dataset.serviceWorker;
  if (!address || !navigator.serviceWorker) return;
  navigator.serviceWorker.register(address, { scope: "/" }).catch(function () {});
  document.addEventListener("submit", function (event) {
    if (!event.target.matches || !event.target.matches("form[data-log-out]")) return;
    var worker = navigator.serviceWorker.controller;
    if (worker) worker.postMessage({ forgetPages: true });
  });
})();

// A button with data-print prints the page (the players' links of the control room).
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-print]");
    if (button) window.print();
  });
})();

// A notice in the score ("Deal 2 saved.", `.board-notice`, on the match page and the players'
// page) is for what was just saved: it goes at the next thing done on the page.
(function () {
  var dismiss = function () {
    var notices = document.querySelectorAll(".board-notice");
    Array.prototype.forEach.call(notices, function (notice) { notice.remove(); });
  };
  ["input", "change", "click"].forEach(function (type) {
    document.addEventListener(type, dismiss, true);
  });
})();
