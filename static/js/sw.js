// The service worker (served at /sw.js by core/views.py, scope "/"): lets the match pages open
// while the club's wifi is down. What it keeps (docs/architecture.md "Offline entry"):
// - "santase-pages": the match pages visited last, /m/<id>/ and /p/<token>/, and the players'
//   passes, /pass/<token>/ and /pass/<token>/m/<id>/ (at most
//   PAGE_LIMIT, the oldest dropped first), as the server last drew them for this phone. Nothing
//   else of the site: no event, standings or admin page, no htmx answer, no post.
// - "santase-static": the files under /static/ those pages loaded (scripts, styles, icons).
// Both are network first: online, every request goes to the server as without a worker and
// only its answer is copied; the copy is used only when the network fails.
// A page kept for a logged-in organiser is shown only to that session: each page keeps the
// X-Session-Marker it was drawn with (config.middleware.SessionMarkerMiddleware: "" for a page
// drawn for no session), and offline a page is served only while that marker is the browser's
// own (the session_marker cookie, read through cookieStore where the browser has it, else the
// marker of the last page the server drew through this worker). Any answer of the server
// naming another marker, or none, forgets the pages kept for another session: a log-out on the
// site or in the admin, or an expired session, leaves nothing of an organiser's pages to open.
// (A page that opens anyway checks its marker itself before it is drawn:
// static/js/session_check.js.) Logging out through the site's button also empties
// "santase-pages" at once (static/js/site.js). The deals entered offline are not here: the page keeps them in
// IndexedDB (static/js/offline.js). The live pages' streams (…/live/) are neither navigations
// nor static files: they pass through untouched, never kept.
var PAGES = "santase-pages";
var STATIC = "santase-static";
var PAGE_LIMIT = 6;
var MATCH_PAGE = /^\/(m\/\d+|p\/[A-Za-z0-9_-]{22,64}|pass\/[A-Za-z0-9_-]{22,64}(\/m\/\d+)?)\/$/;
var LAST = "/__last-match-page__";  // a record in PAGES: the address of the last match page
var SESSION = "/__session-marker__";  // a record in PAGES: the marker the server last named
var MARKER = "X-Session-Marker";

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
      var pages = keys.filter(function (key) {
        var path = new URL(key.url).pathname;
        return path !== LAST && path !== SESSION;
      });
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

// The browser's session marker now: its cookie where the worker can read cookies, else the
// one the server last named to this worker ("" for none).
function currentMarker() {
  var told = caches.open(PAGES).then(function (cache) {
    return cache.match(SESSION).then(function (record) { return record ? record.text() : ""; });
  });
  if (!self.cookieStore) return told;
  return self.cookieStore.get("session_marker").then(function (cookie) {
    return cookie ? cookie.value : "";
  }, function () { return told; });
}

// The server named `marker` (an answer's X-Session-Marker): the pages kept for any other
// session are forgotten.
function learnMarker(marker) {
  return caches.open(PAGES).then(function (cache) {
    return cache.match(SESSION).then(function (record) {
      return record ? record.text() : null;
    }).then(function (known) {
      if (known === marker) return;
      return cache.keys().then(function (keys) {
        return Promise.all(keys.map(function (key) {
          return cache.match(key).then(function (kept) {
            var saved = kept && kept.headers.get(MARKER);
            if (saved && saved !== marker) return cache.delete(key);
          });
        }));
      }).then(function () { return cache.put(SESSION, new Response(marker)); });
    });
  });
}

// `kept` (a page of PAGES) if it may be shown now: drawn for no session, or for the browser's
// own; else it is forgotten and nothing is shown.
function forThisSession(kept) {
  if (!kept) return Promise.resolve(undefined);
  var saved = kept.headers.get(MARKER) || "";
  if (!saved) return Promise.resolve(kept);
  return currentMarker().then(function (marker) {
    if (marker === saved) return kept;
    return learnMarker(marker).then(function () { return undefined; });
  });
}

function page(event) {
  var request = event.request;
  var url = new URL(request.url);
  var isMatchPage = MATCH_PAGE.test(url.pathname);
  return fetch(request).then(function (response) {
    var marker = response.headers.get(MARKER);
    var copy = isMatchPage ? response.clone() : null;  // now: the page reads the body
    var jobs = marker === null ? Promise.resolve() : learnMarker(marker);
    if (copy) jobs = jobs.then(function () { return keepPage(request, copy); });
    event.waitUntil(jobs.catch(function () {}));
    return response;
  }).catch(function (error) {
    return caches.open(PAGES).then(function (cache) {
      return isMatchPage ? cache.match(url.pathname) : undefined;
    }).then(function (kept) {
      // The app's start page offline: the last match page this phone had open.
      if (!kept && url.pathname === "/") return lastMatchPage();
      return kept;
    }).then(forThisSession).then(function (kept) {
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
      var marker = response.headers.get(MARKER);
      return (marker === null ? Promise.resolve() : learnMarker(marker)).then(function () {
        return keepPage(new Request(path), response);
      });
    }));
  }
  event.waitUntil(Promise.all(jobs).catch(function () {}));
});
