// Herald dashboard: small enhancements only; every page works without this file.
(function () {
  "use strict";
  function debounce(fn, ms) { var t; return function () { clearTimeout(t); t = setTimeout(fn, ms); }; }
  // Live previews: a form with data-preview posts itself there as you type.
  document.querySelectorAll("form[data-preview]").forEach(function (form) {
    var target = document.getElementById(form.getAttribute("data-preview-target"));
    if (!target) return;
    var seq = 0;
    var update = debounce(function () {
      var mine = ++seq;
      var data = new URLSearchParams();
      new FormData(form).forEach(function (value, key) { if (typeof value === "string") data.append(key, value); });
      fetch(form.getAttribute("data-preview"), { method: "POST", body: data, credentials: "same-origin",
        headers: { "Content-Type": "application/x-www-form-urlencoded" } })
        .then(function (r) { return r.text(); })
        .then(function (html) { if (mine === seq) target.innerHTML = html; })
        .catch(function () {});
    }, 250);
    form.addEventListener("input", update);
    form.addEventListener("change", update);
  });
  // APNs: show the fields of the chosen authentication.
  var radios = document.querySelectorAll("input[name=auth]");
  function showAuth() {
    var chosen = document.querySelector("input[name=auth]:checked");
    document.querySelectorAll("fieldset[data-auth]").forEach(function (set) {
      set.hidden = chosen ? set.getAttribute("data-auth") !== chosen.value : false;
    });
  }
  radios.forEach(function (r) { r.addEventListener("change", showAuth); });
  if (radios.length) showAuth();
  // A campaign that is sending refreshes until it is done.
  var refresh = document.querySelector("[data-refresh]");
  if (refresh) setTimeout(function () { location.reload(); }, 1000 * Number(refresh.getAttribute("data-refresh")));
})();
