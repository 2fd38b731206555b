/* The order page: wire the label chooser and the board to the order field
   (pbem/boards/static/board.js does the picking). Legal orders come from the
   JSON block the page carries; without JavaScript the page still works by
   typing orders. */
(function () {
  "use strict";
  var data = document.getElementById("legal-orders");
  var board = document.getElementById("board");
  if (!data || !window.PbemBoard) return;
  var orders = JSON.parse(data.textContent || "[]");
  var hint = document.getElementById("board-hint");
  var chooser = document.getElementById("order-label");
  var field = document.getElementById("order-text");
  if (!board) {
    // no board picture for this game: a label without sites still fills the field
    chooser.addEventListener("change", function () {
      var o = orders.filter(function (x) { return x.label === chooser.value; });
      if (o.length === 1) field.value = o[0].text;
    });
    return;
  }
  var picker = window.PbemBoard.attach({
    board: board, input: field, chooser: chooser, orders: orders,
    onPick: function (order) {
      if (hint) hint.textContent = "Picked \u201c" + order.text + "\u201d. Review it below, or click another site.";
      document.getElementById("review").focus();
    }
  });
  chooser.addEventListener("change", function () {
    if (!hint) return;
    var label = chooser.value;
    if (!label) { hint.textContent = "2. Click a highlighted site on the board, or type orders below (one per line)."; return; }
    var n = picker.orders(label).filter(function (o) { return !!o.site; }).length;
    hint.textContent = n ? "2. Click one of the " + n + " highlighted site" + (n === 1 ? "" : "s") + " on the board." :
      "Filled in \u201c" + field.value + "\u201d. Review it below.";
  });
})();
