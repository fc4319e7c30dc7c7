// The finished-scorecard grid (tableside/templates/tableside/match_scorecard.html): the running score
// as the card is copied in, and the keyboard (Enter: the next row; Ctrl+Enter: save).
// It knows no rule of its own: each code's game points come from the legend the server drew
// from scoring/rules.py (data-codes, data-points), the target and whether draws carry over
// from the form (data-target, data-carry). The server checks every row again when saved.
(function () {
  var form = document.getElementById("scorecard-grid");
  if (!form) return;
  var target = parseInt(form.getAttribute("data-target"), 10);
  var carry = form.getAttribute("data-carry") === "1";
  var seats = {};
  form.getAttribute("data-winner-keys").split(" ").forEach(function (key, index) {
    seats[key] = index < 2 ? "A" : "B";
  });
  var codes = {};
  Array.prototype.forEach.call(form.querySelectorAll("[data-codes]"), function (item) {
    var entry = {
      points: item.getAttribute("data-points").split(" ").map(Number),
      draw: item.getAttribute("data-reason") === "draw",
    };
    item.getAttribute("data-codes").split(" ").forEach(function (code) {
      codes[code.toLowerCase()] = entry;
    });
  });
  var rows = Array.prototype.slice.call(form.querySelectorAll("tbody tr[data-row]"));
  var running = document.getElementById("running-score");
  var field = function (row, name) { return row.querySelector("input." + name); };

  // A row as a deal: {winner, points, draw}, or null when it is not one (yet).
  var deal = function (row) {
    var winner = field(row, "winner").value.trim().toLowerCase();
    var typed = field(row, "points").value.trim();
    var code = codes[field(row, "code").value.trim().toLowerCase()];
    var pointsField = field(row, "points");
    pointsField.placeholder = code && code.points.length === 1 ? String(code.points[0]) : "";
    if (!code) return null;
    var points = typed === "" ? (code.points.length === 1 ? code.points[0] : null) : Number(typed);
    if (code.points.indexOf(points) < 0) return null;
    if (code.draw) return winner === "" ? { winner: null, points: 0, draw: true } : null;
    if (!seats[winner]) return null;
    return { winner: seats[winner], points: points, draw: false };
  };
  var filled = function (row) {
    return ["winner", "points", "code"].some(function (name) { return field(row, name).value.trim() !== ""; });
  };

  var update = function () {
    var last = -1;
    rows.forEach(function (row, index) { if (filled(row)) last = index; });
    var totals = { A: 0, B: 0 };
    var carried = 0;
    var over = false;
    rows.forEach(function (row, index) {
      var cells = { A: row.querySelector('[data-total="A"]'), B: row.querySelector('[data-total="B"]') };
      row.classList.remove("unread", "won", "after-end");
      cells.A.textContent = cells.B.textContent = "";
      if (index > last) return;
      var result = deal(row);
      if (over) { row.classList.add("after-end"); return; }
      if (!result) { row.classList.add("unread"); return; }
      if (result.draw) {
        if (carry) carried += 1;
      } else {
        totals[result.winner] += result.points + carried;
        carried = 0;
        if (totals[result.winner] >= target) { over = true; row.classList.add("won"); }
      }
      cells.A.textContent = totals.A;
      cells.B.textContent = totals.B;
    });
    running.hidden = last < 0;
    running.textContent = totals.A + " : " + totals.B;
    running.classList.toggle("won", over);
  };

  form.addEventListener("input", function (event) {
    var input = event.target;
    if (input.classList.contains("winner") || input.classList.contains("code")) {
      var start = input.selectionStart;
      input.value = input.value.toUpperCase();
      input.setSelectionRange(start, start);
    }
    update();
  });
  form.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || event.target.tagName !== "INPUT") return;
    event.preventDefault();
    if (event.ctrlKey || event.metaKey) {
      form.requestSubmit(form.querySelector('button[name="save"]'));
      return;
    }
    var row = event.target.closest("tr");
    var next = rows[rows.indexOf(row) + 1];
    (next ? field(next, "winner") : form.querySelector('button[name="save"]')).focus();
  });
  update();
  var firstBad = form.querySelector("tr.bad input") || (rows.length && field(rows[0], "winner"));
  if (firstBad && !document.querySelector("[autofocus]")) firstBad.focus();
})();
