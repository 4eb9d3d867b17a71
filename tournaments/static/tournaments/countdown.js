// Live countdowns to an event's times, counted on the server's clock (its time is in
// the page's "atu-countdown" settings, read once: the browser's clock may be off).
// - <time data-countdown datetime=...> shows what is left until its time;
// - one with data-reload reloads the page a moment after its time, so that the page
//   then offers what the server offers from then on (check-in, once open);
// - an element with data-hide-at (or data-show-at) set to a time is hidden (or shown)
//   once that time has come: at the start, check-in's reminder gives way to "check-in
//   has closed" while round 1 comes over the event's socket.
// No library.
(function () {
  "use strict";
  var config = document.getElementById("atu-countdown");
  if (!config) return;
  var settings = JSON.parse(config.textContent);
  var skew = Date.parse(settings.now) - Date.now();
  var clocks = Array.prototype.slice.call(document.querySelectorAll("time[data-countdown]"));
  var hiding = Array.prototype.slice.call(document.querySelectorAll("[data-hide-at]"));
  var showing = Array.prototype.slice.call(document.querySelectorAll("[data-show-at]"));
  if (!clocks.length && !hiding.length && !showing.length) return;

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function left(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var days = Math.floor(s / 86400), hours = Math.floor(s / 3600) % 24;
    var clock = two(Math.floor(s / 60) % 60) + ":" + two(s % 60);
    if (days || hours) clock = hours + ":" + clock;
    return days ? settings.text.days.replace("%(days)s", days).replace("%(time)s", clock) : clock;
  }

  function tick() {
    var now = Date.now() + skew;
    clocks.forEach(function (clock) {
      var ms = Date.parse(clock.getAttribute("datetime")) - now;
      clock.textContent = ms > 0 ? left(ms) : settings.text.now;
      if (ms <= 0 && clock.hasAttribute("data-reload") && !clock.dataset.reloading) {
        clock.dataset.reloading = "1";
        setTimeout(function () { window.location.reload(); }, settings.reload_ms);
      }
    });
    hiding.forEach(function (element) {
      if (Date.parse(element.dataset.hideAt) <= now) element.hidden = true;
    });
    showing.forEach(function (element) {
      if (Date.parse(element.dataset.showAt) <= now) element.hidden = false;
    });
  }
  tick();
  setInterval(tick, 1000);
})();
