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
  const original = console.error;
  console.error = function (...args) {
    note(`console.error: ${args.map(String).join(" ")}`);
    return original.apply(this, args);
  };
})();
