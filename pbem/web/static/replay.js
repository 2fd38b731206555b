/* The game page replay: moving the step slider shows that step. */
(function () {
  "use strict";
  var form = document.getElementById("replay-form");
  var step = document.getElementById("step");
  if (!form || !step) return;
  var out = form.querySelector("output");
  step.addEventListener("input", function () {
    if (out) out.textContent = "step " + step.value + " / " + step.max;
  });
  step.addEventListener("change", function () { form.submit(); });
})();
