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
  // Time zones: the browser's own is chosen where the player chose none, and a search box
  // narrows the grouped list (the list alone works without this script).
  document.querySelectorAll("select[data-browser-zone]").forEach(function (select) {
    var mine = "";
    try { mine = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { mine = ""; }
    if (select.dataset.browserZone === "take" && mine && select.querySelector("option[value='" + mine + "']")) {
      select.value = mine;
    }
    var search = document.getElementById(select.id + "-search");
    if (!search) { return; }
    search.hidden = false;
    search.addEventListener("input", function () {
      var words = search.value.trim().toLowerCase().replace(/ /g, "_");
      var first = null;
      select.querySelectorAll("option").forEach(function (option) {
        var hit = !words || option.value.toLowerCase().indexOf(words) >= 0;
        option.hidden = !hit;
        if (hit && !first) { first = option; }
      });
      select.querySelectorAll("optgroup").forEach(function (group) {
        group.hidden = !group.querySelector("option:not([hidden])");
      });
      if (words && first) { select.value = first.value; }
    });
  });
}());
