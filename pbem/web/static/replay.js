/* The game page replay: moving the step slider shows that step. */
(function () {
  "use strict";
  var form = document.getElementById("replay-form");
  var step = document.getElementById("step");
  if (!form || !step) return;
  var out = form.querySelector("output");
  step.addEventListener("input", function () {
    // the page's own words ({step}, {last}), in its language
    if (out) out.textContent = (out.getAttribute("data-text") || "{step} / {last}")
      .replace("{step}", step.value).replace("{last}", step.max);
  });
  step.addEventListener("change", function () { form.submit(); });
})();
