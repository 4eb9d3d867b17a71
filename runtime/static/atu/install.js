// Registers the site's service worker (runtime/install.py), whose address the script's
// tag gives: the site can then be added to a phone's home screen, and a page that
// cannot load for want of the network shows the offline page.
"use strict";
(() => {
  const worker = document.currentScript && document.currentScript.dataset.worker;
  if (!worker || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(worker, { scope: "/" }).catch(() => {
    // No worker (a private window, an insecure origin): the site works as before.
  });
})();
