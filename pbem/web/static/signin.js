/* The sign-in confirmation at a first sign-in: the browser's time zone
   goes with the form (pbem/web/first_signin.py); without JavaScript the
   zone stays as it was. */
(function () {
  "use strict";
  var field = document.getElementById("browser-zone");
  if (!field || typeof Intl === "undefined" || !Intl.DateTimeFormat) return;
  try {
    field.value = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) { /* an old browser: nothing to send */ }
})();
