// Invitation links: "Copy link" and "Print" buttons. Without this file the link
// is still on the page to select and copy, and the browser's own Print works.
(function () {
  "use strict";
  function show(selector) {
    document.querySelectorAll(selector).forEach(function (button) { button.hidden = false; });
  }
  if (navigator.clipboard) show("button[data-copy]");
  if (window.print) show("button[data-print]");

  document.addEventListener("click", function (event) {
    var button = event.target.closest("button[data-copy], button[data-print]");
    if (!button) return;
    if (button.hasAttribute("data-print")) {
      window.print();
      return;
    }
    var source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    navigator.clipboard.writeText(source.textContent.trim()).then(function () {
      var status = button.parentNode.querySelector(".copy-status");
      if (status) status.textContent = button.getAttribute("data-copied");
    });
  });
})();
