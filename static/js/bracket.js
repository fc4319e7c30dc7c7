// Follow a player through the bracket: pointing at a name (or focusing it) lights up every
// line that player is on; a tap pins the path (phones have no hover) until tapped again or
// elsewhere. The board is swapped by htmx polling, so the path is drawn again after a swap.
(function () {
  var pinned = null;

  function board() { return document.getElementById("bracket-board"); }

  function show(id) {
    var root = board();
    if (!root) return;
    root.querySelectorAll(".bm-side.path").forEach(function (el) { el.classList.remove("path"); });
    root.classList.toggle("has-path", Boolean(id));
    if (!id) return;
    root.querySelectorAll('[data-entry="' + id + '"]').forEach(function (el) {
      if (el.classList.contains("bm-side")) el.classList.add("path");
    });
  }

  function entryOf(target) {
    var side = target.closest && target.closest(".bm-side[data-entry]");
    return side ? side.dataset.entry : null;
  }

  document.addEventListener("mouseover", function (event) {
    if (pinned || !board()) return;
    show(entryOf(event.target));
  });
  document.addEventListener("focusin", function (event) {
    if (!pinned && entryOf(event.target)) show(entryOf(event.target));
  });
  document.addEventListener("click", function (event) {
    if (!board()) return;
    var id = entryOf(event.target);
    pinned = id && id !== pinned ? id : null;
    show(pinned);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Enter" || event.key === " ") {
      var id = entryOf(event.target);
      if (!id) return;
      event.preventDefault();
      pinned = id !== pinned ? id : null;
      show(pinned);
    }
  });
  document.addEventListener("htmx:afterSwap", function () { show(pinned); });
})();
