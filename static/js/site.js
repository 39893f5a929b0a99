// Small progressive enhancements; every page works without this file.
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList || !form.classList.contains("language-form")) return;
    // After htmx has changed the address (search as you type), come back to
    // the address the visitor sees now, not the one the page was served at.
    var next = form.querySelector('input[name="next"]');
    if (next) next.value = window.location.pathname + window.location.search;
  });
})();
