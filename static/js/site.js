// Every page: a submit button with data-confirm asks first (the Content-Security-Policy allows no
// inline onclick handlers, so the question lives in the button's data-confirm attribute).
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-confirm]");
    if (button && !window.confirm(button.dataset.confirm)) event.preventDefault();
  });
})();

// A button with data-print prints the page (the players' links of the control room).
(function () {
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("button[data-print]");
    if (button) window.print();
  });
})();
