// Dashboard helpers: copy buttons, confirmations without HTMX, error toasts.
(function () {
  function toast(text, bad) {
    var box = document.getElementById("toasts");
    if (!box) return;
    var el = document.createElement("div");
    el.className = "toast" + (bad ? " bad" : "");
    el.textContent = text;
    box.appendChild(el);
    setTimeout(function () { el.remove(); }, 6000);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var value = button.getAttribute("data-copy");
    var done = function () { var old = button.textContent; button.textContent = "Copied"; setTimeout(function () { button.textContent = old; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(value).then(done, function () { toast("Copy failed: select the text and copy it.", true); });
    } else {
      var area = document.createElement("textarea");
      area.value = value; document.body.appendChild(area); area.select();
      try { document.execCommand("copy"); done(); } catch (e) { toast("Copy failed: select the text and copy it.", true); }
      area.remove();
    }
  });
  document.addEventListener("htmx:responseError", function (event) {
    var xhr = event.detail.xhr, text = "Something went wrong (" + xhr.status + ").";
    var doc = new DOMParser().parseFromString(xhr.responseText || "", "text/html");
    var p = doc.querySelector("[role=alert] p, h1");
    if (p && p.textContent.trim()) text = p.textContent.trim();
    toast(text, true);
  });
  // Date inputs read in the browser's time zone (the message composer's "Send at").
  function zones(root) {
    var zone = "UTC";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC"; } catch (e) { /* UTC */ }
    root.querySelectorAll("input[data-browser-zone]").forEach(function (input) { input.value = zone; });
  }
  document.addEventListener("DOMContentLoaded", function () { zones(document); });
  document.addEventListener("htmx:load", function (event) { zones(event.detail.elt); });
  document.addEventListener("htmx:sendError", function () { toast("The server could not be reached. Check your connection.", true); });
  // Forms marked data-track-changes say "Unsaved changes" and warn before leaving.
  document.addEventListener("input", function (event) {
    if (event.target.type === "color") {
      var code = event.target.parentElement.querySelector("code");
      if (code) code.textContent = event.target.value;
    }
    // A field's default change message follows its label ("Seat: %@").
    var row = event.target.closest(".fieldrow");
    var message = row && /-label$/.test(event.target.name || "") && row.querySelector("[data-default-message]");
    if (message) message.placeholder = (event.target.value.trim() || "Label") + ": %@";
    var form = event.target.closest("form[data-track-changes]");
    if (!form) return;
    form.dataset.dirty = "1";
    var note = form.querySelector(".dirty-note");
    if (note) note.hidden = false;
  });
  // A plain submit leaves the page on purpose. An HTMX form stays dirty until the server's
  // answer replaces it: a failed save comes back still marked (data-dirty), a saved one not.
  document.addEventListener("submit", function (event) {
    if (event.target.dataset && !event.target.hasAttribute("hx-post")) delete event.target.dataset.dirty;
  }, true);
  window.addEventListener("beforeunload", function (event) {
    if (document.querySelector("form[data-track-changes][data-dirty]")) { event.preventDefault(); event.returnValue = ""; }
  });
  // What inline handlers and style attributes would do: the Content-Security-Policy allows
  // scripts and styles from files only.
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-toggle-nav]")) document.body.classList.toggle("nav-open");
    if (event.target.closest("[data-print]")) window.print();
    // On a narrow screen the designer's preview can be kept in view while editing.
    if (event.target.closest("[data-pin-preview]")) pinPreview(!document.documentElement.classList.contains("preview-pinned"));
    var overwrite = event.target.closest("[data-overwrite]");
    if (overwrite) {
      var form = document.getElementById("design-form");
      form.elements.overwrite.value = overwrite.getAttribute("data-overwrite");
      form.requestSubmit();
    }
    var row = event.target.closest("tr[data-row-link]");
    if (row && !event.target.closest("a")) location.href = row.querySelector("a").href;
  });
  document.addEventListener("change", function (event) {
    var el = event.target;
    if (el.matches("[data-autosubmit]")) el.form.submit();
    if (el.matches("[data-row-binding]")) el.closest(".fieldrow").dataset.binding = el.value;
    // A select marked data-shows-choice shows the parts of its form made for the chosen value.
    if (el.matches("[data-shows-choice]")) {
      el.form.querySelectorAll("[data-shown-for]").forEach(function (part) {
        part.hidden = part.getAttribute("data-shown-for") !== el.value;
      });
    }
  });
  // Card previews take their colours from the template: set through the style object,
  // which the policy allows (style attributes it does not).
  function paint(root) {
    var found = Array.prototype.slice.call(root.querySelectorAll("[data-background], [data-color]"));
    if (root.matches && root.matches("[data-background], [data-color]")) found.push(root);
    found.forEach(function (el) {
      if (el.dataset.background) el.style.background = el.dataset.background;
      if (el.dataset.color) el.style.color = el.dataset.color;
      if (el.dataset.labelColor) el.style.setProperty("--card-label", el.dataset.labelColor);
    });
  }
  function pinPreview(on) {
    document.documentElement.classList.toggle("preview-pinned", on);
    document.querySelectorAll("[data-pin-preview]").forEach(function (b) { b.setAttribute("aria-pressed", on ? "true" : "false"); });
  }
  document.addEventListener("htmx:load", function (event) {
    paint(event.detail.elt);
    if (event.detail.elt.querySelector && event.detail.elt.querySelector("[data-pin-preview]")) pinPreview(document.documentElement.classList.contains("preview-pinned"));
  });
  window.dashboardToast = toast;
})();
