// The service worker (served at /sw.js by core/views.py, scope "/"): lets the match pages open
// while the club's wifi is down. What it keeps (docs/architecture.md "Offline entry"):
// - "santase-pages": the match pages visited last, /m/<id>/ and /p/<token>/, and the players'
//   passes, /pass/<token>/ and /pass/<token>/m/<id>/ (at most
//   PAGE_LIMIT, the oldest dropped first), as the server last drew them for this phone. Nothing
//   else of the site: no event, standings or admin page, no htmx answer, no post.
// - "santase-static": the files under /static/ those pages loaded (scripts, styles, icons).
// Both are network first: online, every request goes to the server as without a worker and
// only its answer is copied; the copy is used only when the network fails. Logging out
// empties "santase-pages" (static/js/offline.js), so an organiser's pages do not stay on a
// phone handed to someone else. The deals entered offline are not here: the page keeps them in
// IndexedDB (static/js/offline.js). The live pages' streams (…/live/) are neither navigations
// nor static files: they pass through untouched, never kept.
var PAGES = "santase-pages";
var STATIC = "santase-static";
var PAGE_LIMIT = 6;
var MATCH_PAGE = /^\/(m\/\d+|p\/[A-Za-z0-9_-]{22,64}|pass\/[A-Za-z0-9_-]{22,64}(\/m\/\d+)?)\/$/;
var LAST = "/__last-match-page__";  // a record in PAGES: the address of the last match page

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(self.clients.claim());
});

function keepPage(request, response) {
  if (!response.ok || response.redirected || response.type !== "basic") return Promise.resolve();
  var url = new URL(request.url);
  return caches.open(PAGES).then(function (cache) {
    var address = url.pathname;
    return cache.put(address, response).then(function () {
      return cache.put(LAST, new Response(address));
    }).then(function () {
      return cache.keys();
    }).then(function (keys) {
      // Keys come in the order they were put (putting an address again moves it last):
      // the oldest go first.
      var pages = keys.filter(function (key) { return new URL(key.url).pathname !== LAST; });
      var extra = pages.length - PAGE_LIMIT;
      return Promise.all(pages.slice(0, Math.max(extra, 0)).map(function (key) {
        return cache.delete(key);
      }));
    });
  });
}

function lastMatchPage() {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(LAST).then(function (record) {
      return record ? record.text().then(function (address) { return cache.match(address); })
        : undefined;
    });
  });
}

function page(event) {
  var request = event.request;
  var url = new URL(request.url);
  var isMatchPage = MATCH_PAGE.test(url.pathname);
  return fetch(request).then(function (response) {
    if (isMatchPage) event.waitUntil(keepPage(request, response.clone()));
    return response;
  }).catch(function (error) {
    return caches.open(PAGES).then(function (cache) {
      return isMatchPage ? cache.match(url.pathname) : undefined;
    }).then(function (kept) {
      // The app's start page offline: the last match page this phone had open.
      if (!kept && url.pathname === "/") return lastMatchPage();
      return kept;
    }).then(function (kept) {
      if (kept) return kept;
      throw error;
    });
  });
}

function staticFile(event) {
  var request = event.request;
  return fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      event.waitUntil(caches.open(STATIC).then(function (cache) { return cache.put(request, copy); }));
    }
    return response;
  }).catch(function (error) {
    return caches.match(request, { cacheName: STATIC }).then(function (kept) {
      if (kept) return kept;
      throw error;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(staticFile(event));
  }
});

// The page asks: keep this page and its files (a first visit, drawn before this worker was in
// charge of it), or forget every page (a log-out).
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.forgetPages) {
    event.waitUntil(caches.delete(PAGES));
    return;
  }
  var path = data.keepPage && new URL(data.keepPage, self.location.origin).pathname;
  var jobs = (data.keepStatic || []).map(function (address) {
    var url = new URL(address, self.location.origin);
    if (url.origin !== self.location.origin || url.pathname.indexOf("/static/") !== 0) return null;
    return fetch(url).then(function (response) {
      if (response.ok) return caches.open(STATIC).then(function (cache) { return cache.put(url, response); });
    });
  });
  if (path && MATCH_PAGE.test(path)) {
    jobs.push(fetch(path, { credentials: "same-origin" }).then(function (response) {
      return keepPage(new Request(path), response);
    }));
  }
  event.waitUntil(Promise.all(jobs).catch(function () {}));
});
