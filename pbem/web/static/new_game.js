/* Host a new game: show only the chosen game's options and say how many
   seats it takes. Without JavaScript every option stays visible. */
(function () {
  "use strict";
  var form = document.getElementById("new-game");
  if (!form) return;
  var note = document.getElementById("seat-note");
  function update() {
    var chosen = form.querySelector('input[name="kind"]:checked');
    var kind = chosen ? chosen.value : "";
    Array.prototype.forEach.call(form.querySelectorAll(".option[data-kind]"), function (el) {
      el.hidden = el.getAttribute("data-kind") !== kind;
    });
    if (note && chosen) {
      // the page's own words ({title}, {min}, {max}), in its language
      note.textContent = (note.getAttribute("data-text") || "{title}: {min}\u2013{max}")
        .replace("{title}", chosen.getAttribute("data-title")).replace("{min}", chosen.getAttribute("data-min"))
        .replace("{max}", chosen.getAttribute("data-max"));
    }
  }
  form.addEventListener("change", function (ev) { if (ev.target.name === "kind") update(); });
  update();
})();
