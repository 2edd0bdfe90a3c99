// The optional browser script of live sites (`/_service/analytics`): single-page navigations, engagement time,
// outbound link clicks and custom events, posted to the same address. No cookie or storage is used.
export const ANALYTICS_SCRIPT = `(function () {
  var d = document, w = window, l = location, endpoint = "/_service/analytics";
  if (w.sitewright && w.sitewright.track) return;
  var path = l.pathname, shown = d.visibilityState === "visible" ? Date.now() : 0, engaged = 0;
  function send(name, extra) {
    var body = { n: name, u: l.href, r: d.referrer };
    for (var k in extra) body[k] = extra[k];
    var text = JSON.stringify(body);
    if (navigator.sendBeacon && navigator.sendBeacon(endpoint, text)) return;
    fetch(endpoint, { method: "POST", body: text, keepalive: true, credentials: "omit" });
  }
  function engagement(url) {
    var ms = engaged + (shown ? Date.now() - shown : 0);
    engaged = 0;
    shown = d.visibilityState === "visible" ? Date.now() : 0;
    if (ms >= 1000) send("engagement", { u: url, e: ms });
  }
  w.addEventListener("pagehide", function () {
    engagement(l.href);
  });
  d.addEventListener("visibilitychange", function () {
    if (d.visibilityState === "hidden") engagement(l.href);
    else shown = Date.now();
  });
  function navigated() {
    if (l.pathname === path) return;
    var previous = l.origin + path;
    engagement(previous);
    path = l.pathname;
    send("pageview", { r: previous });
  }
  var push = history.pushState;
  history.pushState = function () {
    push.apply(this, arguments);
    navigated();
  };
  w.addEventListener("popstate", navigated);
  d.addEventListener("click", function (event) {
    var a = event.target && event.target.closest ? event.target.closest("a[href]") : null;
    if (a && /^https?:$/.test(a.protocol) && a.host !== l.host) send("Outbound Link: Click", { p: { url: a.href } });
  }, true);
  w.sitewright = w.sitewright || {};
  w.sitewright.track = function (name, props) {
    send(String(name), { p: props || {} });
  };
})();
`;
