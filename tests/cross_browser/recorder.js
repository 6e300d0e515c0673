// Runs first in every document (Firefox: a BiDi preload script; WebKit: a user script at document
// start): records what window.onerror and an error tracker would see, including the messages the
// driver's own channels miss (ResizeObserver loops are an ErrorEvent at window and nothing else).
(() => {
  if (window.__crossBrowserErrors) return;
  const errors = (window.__crossBrowserErrors = []);
  const note = (text) => errors.push(`${location.pathname}${location.hash}: ${text}`);
  addEventListener(
    "error",
    (event) => {
      const target = event.target;
      if (target && target !== window && (target.src || target.href))
        note(`failed to load ${target.src || target.href}`);
      else note(event.message || String(event.error));
    },
    true,
  );
  addEventListener("unhandledrejection", (event) => note(`unhandled rejection: ${event.reason}`));
  // The addresses of failed requests (fetch, or XMLHttpRequest as Material's are), kept across the
  // tab's pages (sessionStorage): WebKit reports such a rejection in its console without the address,
  // which the tests match it with.
  const failed = (url) => {
    const all = JSON.parse(sessionStorage.getItem("crossBrowserFailedFetches") || "[]");
    sessionStorage.setItem("crossBrowserFailedFetches", JSON.stringify([...all, String(url)]));
  };
  const fetch = window.fetch;
  window.fetch = function (input, init) {
    return fetch.call(this, input, init).catch((error) => {
      failed((input && input.url) || input);
      throw error;
    });
  };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    // One listener for the request's life, whichever address it was opened with last.
    this.crossBrowserUrl = new URL(url, location.href);
    if (!this.crossBrowserWatched) this.addEventListener("error", () => failed(this.crossBrowserUrl));
    this.crossBrowserWatched = true;
    return open.call(this, method, url, ...rest);
  };
  const original = console.error;
  console.error = function (...args) {
    note(`console.error: ${args.map(String).join(" ")}`);
    return original.apply(this, args);
  };
})();
