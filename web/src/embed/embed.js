// dist/embed.js: a small script for a course page that holds the playground in iframes. Each frame
// (the page with embed=1) posts { type: 'attention-playground:size', height }; this sets that frame's
// height, so it shows everything without a scrollbar of its own. Without this script (platforms that
// strip scripts) a frame keeps the height the page gave it and scrolls inside.
// Only playground frames are sized: any frame can post that message (a foreign one made a frame
// 20,000 px tall), so a message counts only when it comes from the window of an iframe whose src is on
// the origin this script was loaded from (the playground's: the snippets load it from the same folder)
// and the message's origin is that origin too (a frame navigated elsewhere no longer counts).
(() => {
  const MAX_HEIGHT = 20000; // px: a message can never make a frame absurdly tall

  // The playground's origin: where this script came from (the page's own when it was inlined).
  const own = document.currentScript?.src ? new URL(document.currentScript.src, location.href).origin : location.origin;

  /** The origin an iframe's src names, or null (about:blank, srcdoc, a malformed src). */
  const srcOrigin = (frame) => {
    try {
      const origin = new URL(frame.getAttribute('src') ?? '', location.href).origin;
      return origin === 'null' ? null : origin;
    } catch {
      return null;
    }
  };
  const playgroundFrames = () => [...document.querySelectorAll('iframe')].filter((frame) => srcOrigin(frame) === own);

  addEventListener('message', (event) => {
    const data = event.data;
    if (!data || data.type !== 'attention-playground:size' || event.origin !== own) return;
    const height = Number(data.height);
    if (!Number.isFinite(height) || height <= 0) return;
    const frame = playgroundFrames().find((f) => f.contentWindow === event.source);
    if (frame) frame.style.height = `${Math.min(MAX_HEIGHT, Math.ceil(height))}px`;
  });

  // Frames that loaded before this script sent their size to nobody: ask every playground frame again
  // (addressed to the playground's origin, so no other frame receives it). A frame still on its first empty
  // document (a lazy frame not loaded when the page's load fires) is not asked: that document is the course
  // page's origin, so the message would be refused with a console warning, and the frame posts its size
  // itself when it loads.
  // (A loaded playground frame is of another origin: its contentDocument is null.)
  const loading = (frame) => frame.contentDocument?.URL === 'about:blank';
  const ask = () => {
    for (const frame of playgroundFrames()) {
      if (!loading(frame)) frame.contentWindow?.postMessage({ type: 'attention-playground:measure' }, own);
    }
  };
  if (document.readyState === 'complete') ask();
  else addEventListener('load', ask);
})();
