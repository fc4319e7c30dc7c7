// Runs before a logged-in organiser's page is drawn (core/templates/base.html loads it in the
// <head>, not deferred). The page names the session it was drawn for (<meta name=
// "session-marker"> just before it, config.middleware.SessionMarkerMiddleware); the browser keeps the marker of its
// session in the session_marker cookie, gone when the session ends however it ends (a log-out
// on the site or in the admin, an expired session). A page whose marker is not the browser's
// is a copy the service worker kept for another session (docs/architecture.md "Offline
// entry"): it is not shown, the worker forgets the pages it kept, and a sentence says why.
(function () {
  var html = document.documentElement;
  var meta = document.querySelector("meta[name=session-marker]");
  var marker = meta && meta.getAttribute("content");
  if (!marker) return;
  var found = document.cookie.match(/(?:^|;\s*)session_marker=([^;]*)/);
  if (found && found[1] === marker) return;
  var script = document.currentScript;
  html.setAttribute("data-session-ended", "");
  if (navigator.serviceWorker && navigator.serviceWorker.controller) {
    navigator.serviceWorker.controller.postMessage({ forgetPages: true });
  }
  document.addEventListener("DOMContentLoaded", function () {
    var main = document.createElement("main");
    main.className = "session-ended";
    var sentence = document.createElement("p");
    sentence.className = "message error";
    sentence.setAttribute("role", "alert");
    sentence.textContent = script.dataset.ended;
    var login = document.createElement("a");
    login.href = script.dataset.login;
    login.textContent = script.dataset.loginText;
    main.appendChild(sentence);
    main.appendChild(login);
    document.body.textContent = "";
    document.body.appendChild(main);
    html.removeAttribute("data-session-ended");
  });
})();
