import HTTPTypes
import Hummingbird

/// The dashboard's stylesheet and script, served by Herald (no CDN, no build step). The script
/// only enhances: live previews as you type, the APNs auth choice, and refreshing a campaign
/// while it sends. Every page works without it.
enum DashboardAssets {
    static func response(_ text: String, type: String) -> Response {
        var headers = DashboardView.securityHeaders
        headers[.contentType] = type
        headers[.cacheControl] = "public, max-age=300"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static let css = #"""
    :root { --bg: #f6f7f9; --fg: #1b1f24; --muted: #5b6470; --card: #fff; --line: #d9dde3; --accent: #2557d6; --accent-fg: #fff;
      --ok: #1f7a3a; --bad: #b3261e; --warn: #8a5a00; --focus: #ffbf47; font-size: 16px; }
    @media (prefers-color-scheme: dark) { :root { --bg: #14171b; --fg: #e8eaed; --muted: #a3abb5; --card: #1e2228; --line: #353b44;
      --accent: #7aa2ff; --accent-fg: #0b1020; --ok: #6fd08c; --bad: #ff8a80; --warn: #ffcc66; } }
    * { box-sizing: border-box; }
    body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: var(--bg); color: var(--fg); line-height: 1.45; }
    a { color: var(--accent); }
    :focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
    .skip { position: absolute; left: -999px; top: 0; background: var(--card); padding: .5rem 1rem; }
    .skip:focus { left: 0; z-index: 10; }
    .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
    .top { display: flex; flex-wrap: wrap; align-items: center; gap: .75rem 1rem; padding: .75rem 1rem; background: var(--card); border-bottom: 1px solid var(--line); }
    .brand { font-weight: 700; font-size: 1.15rem; text-decoration: none; color: var(--fg); }
    .app { color: var(--muted); }
    .signout { margin-left: auto; }
    .main-nav ul { display: flex; flex-wrap: wrap; gap: .25rem; list-style: none; margin: 0; padding: .5rem 1rem; background: var(--card); border-bottom: 1px solid var(--line); }
    .main-nav a { display: inline-block; padding: .4rem .7rem; border-radius: 6px; text-decoration: none; color: var(--fg); }
    .main-nav a[aria-current="page"] { background: var(--accent); color: var(--accent-fg); }
    main { max-width: 1200px; margin: 0 auto; padding: 1rem; }
    main:focus { outline: none; }
    h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
    h2 { font-size: 1.2rem; margin: 1.2rem 0 .6rem; }
    .card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem; margin: 0 0 1rem; }
    .card > h2:first-child { margin-top: 0; }
    .narrow { max-width: 28rem; }
    .columns { display: grid; gap: 1rem; grid-template-columns: minmax(0, 1fr); }
    @media (min-width: 900px) { .columns { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
    .field { margin: 0 0 .9rem; }
    label { display: block; font-weight: 600; margin-bottom: .25rem; }
    .check { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem .5rem; margin: .4rem 0; }
    .check label { display: inline; font-weight: 500; margin: 0; }
    .check .help { flex-basis: 100%; margin: 0 0 .3rem 1.7rem; }
    input:not([type=checkbox]):not([type=radio]), select, textarea { width: 100%; max-width: 40rem; padding: .5rem .6rem; font: inherit;
      color: var(--fg); background: var(--bg); border: 1px solid var(--line); border-radius: 6px; }
    input[type=checkbox], input[type=radio] { width: 1.15rem; height: 1.15rem; }
    textarea.code, .code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9rem; }
    [aria-invalid="true"] { border-color: var(--bad) !important; box-shadow: 0 0 0 1px var(--bad); }
    fieldset { border: 1px solid var(--line); border-radius: 8px; margin: 0 0 1rem; padding: .5rem 1rem 1rem; }
    legend { font-weight: 700; padding: 0 .3rem; }
    button, .button { display: inline-block; font: inherit; font-weight: 600; padding: .55rem 1rem; border-radius: 6px; border: 1px solid var(--accent);
      background: var(--accent); color: var(--accent-fg); cursor: pointer; text-decoration: none; min-height: 2.5rem; }
    button.secondary, .button.secondary { background: transparent; color: var(--accent); }
    button.danger { background: var(--bad); border-color: var(--bad); color: #fff; }
    button.link { background: none; border: none; color: var(--accent); padding: 0; min-height: 0; text-decoration: underline; font-weight: 500; }
    .buttons, .actions { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; margin: .5rem 0 0; }
    .buttons form { margin: 0; }
    .inline { display: flex; flex-wrap: wrap; gap: .75rem; align-items: flex-end; }
    .inline .field { margin: 0; }
    .inline-form { display: inline; }
    .help, .muted { color: var(--muted); font-size: .9rem; margin: .25rem 0 0; }
    .field-error, .form-error { color: var(--bad); font-weight: 600; margin: .3rem 0 0; }
    .form-error::before, .field-error::before { content: "⚠ "; }
    .warning { color: var(--warn); font-weight: 600; }
    .notice { background: var(--card); border-left: 4px solid var(--ok); padding: .6rem 1rem; border-radius: 6px; }
    .empty { color: var(--muted); font-style: italic; }
    .ok-text { color: var(--ok); }
    .table-wrap { overflow-x: auto; position: relative; }
    table { border-collapse: collapse; width: 100%; background: var(--card); font-size: .92rem; }
    caption { text-align: left; color: var(--muted); padding: .4rem 0; }
    th, td { text-align: left; padding: .45rem .6rem; border-bottom: 1px solid var(--line); vertical-align: top; }
    thead th { font-size: .85rem; color: var(--muted); }
    .status { display: inline-block; padding: .05rem .45rem; border-radius: 999px; font-size: .8rem; font-weight: 600; border: 1px solid currentColor; }
    .s-delivered, .s-sent, .s-inapp { color: var(--ok); }
    .s-failed, .s-expired, .s-cancelled { color: var(--bad); }
    .s-skipped, .s-draft { color: var(--muted); }
    .s-pending, .s-sending, .s-scheduled { color: var(--warn); }
    .tiles { display: grid; grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr)); gap: .75rem; list-style: none; padding: 0; margin: 0 0 1rem; }
    .tile { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: .75rem; }
    .tile-label { display: block; color: var(--muted); font-size: .85rem; }
    .tile-value { display: block; font-size: 1.6rem; font-weight: 700; }
    .tile-note { display: block; color: var(--muted); font-size: .8rem; }
    figure { margin: 0; }
    .chart { width: 100%; height: auto; max-width: 100%; }
    .chart .grid { stroke: var(--line); stroke-width: 1; }
    .chart .axis, .chart .label, .chart .value { fill: var(--muted); font-size: 11px; }
    .chart .label { fill: var(--fg); font-size: 12px; }
    .chart .funnel-label { fill: var(--fg); font-size: 13px; font-weight: 600; }
    .c-delivered { fill: #2e9d52; background: #2e9d52; } .c-inapp { fill: #3b82c4; background: #3b82c4; }
    .c-failed { fill: #d64541; background: #d64541; } .c-skipped { fill: #9aa3ad; background: #9aa3ad; } .c-pending { fill: #e0a526; background: #e0a526; }
    .c-step0 { fill: #7aa2ff; } .c-step1 { fill: #6b93f0; } .c-step2 { fill: #5b84e0; } .c-step3 { fill: #4b75d0; } .c-step4 { fill: #3b66c0; }
    .legend { display: flex; flex-wrap: wrap; gap: .4rem 1rem; list-style: none; padding: 0; font-size: .9rem; }
    .swatch { display: inline-block; width: .8rem; height: .8rem; border-radius: 2px; margin-right: .3rem; vertical-align: -1px; }
    .facts { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; margin: .5rem 0; }
    .facts dt { color: var(--muted); }
    .facts dd { margin: 0; overflow-wrap: anywhere; }
    .verdict { border-radius: 8px; padding: .75rem 1rem; margin-top: 1rem; border: 2px solid; }
    .verdict.ok { border-color: var(--ok); } .verdict.bad { border-color: var(--bad); }
    .verdict h3 { margin: 0 0 .4rem; font-size: 1.05rem; }
    .push-preview { border: 1px solid var(--line); border-radius: 14px; padding: .75rem 1rem; background: var(--bg); max-width: 26rem; }
    .push-title { font-weight: 700; margin: 0; } .push-body { margin: .2rem 0 0; }
    .problems { padding-left: 1.2rem; } .pointer { color: var(--bad); }
    .card-previews { display: grid; grid-template-columns: 1fr; gap: 1rem; }
    @media (min-width: 600px) { .card-previews { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
    .card-canvas { border-radius: 12px; padding: .75rem; overflow: hidden; }
    .card-canvas.light { background: #eef0f3; } .card-canvas.dark { background: #000; }
    figcaption { font-size: .85rem; color: var(--muted); margin-bottom: .3rem; }
    .chips, .list { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4rem; }
    .list { display: block; } .list li { padding: .3rem 0; border-bottom: 1px solid var(--line); }
    .chip { display: inline-block; padding: .15rem .6rem; border-radius: 999px; border: 1px solid var(--line); font-size: .85rem; }
    .chip.on { border-color: var(--ok); } .chip.off { border-color: var(--bad); }
    progress { width: 100%; height: 1.2rem; }
    pre.code { white-space: pre-wrap; overflow-wrap: anywhere; }
    .range { color: var(--muted); }
    """#

    static let js = #"""
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
    """#
}
