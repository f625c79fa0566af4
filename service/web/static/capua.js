/* Capua: small enhancements; every page works without this script. */
(function () {
  "use strict";
  // Replay: moving the slider shows its step at once (the form's button does it without script).
  document.querySelectorAll("form.replay-form").forEach(function (form) {
    var range = form.querySelector("input[type=range]");
    var output = form.querySelector("output");
    if (!range) { return; }
    range.addEventListener("input", function () { if (output) { output.textContent = range.value; } });
    range.addEventListener("change", function () { form.submit(); });
  });
}());
