// Live countdowns to an event's times: every <time data-countdown> shows what is left
// until its datetime, counted on the server's clock (data-now on <body>'s script tag,
// read once: the browser's clock may be off). One with data-reload reloads the page a
// moment after its time, so the page then says what the server says (check-in open,
// round 1 started). No library.
(function () {
  "use strict";
  var config = document.getElementById("atu-countdown");
  if (!config) return;
  var settings = JSON.parse(config.textContent);
  var skew = Date.parse(settings.now) - Date.now();
  var clocks = Array.prototype.slice.call(document.querySelectorAll("time[data-countdown]"));
  if (!clocks.length) return;

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
        // A moment after: the clock's task (or beat) has a few seconds to act.
        setTimeout(function () { window.location.reload(); }, settings.reload_ms);
      }
    });
  }
  tick();
  setInterval(tick, 1000);
})();
