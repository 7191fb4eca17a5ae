// dist/embed.js: a small script for a course page that holds the playground in iframes. Each frame
// (the page with embed=1) posts { type: 'attention-playground:size', height }; this sets that frame's
// height, so it shows everything without a scrollbar of its own. Without this script (platforms that
// strip scripts) a frame keeps the height the page gave it and scrolls inside.
(() => {
  const MAX_HEIGHT = 20000; // px: a message can never make a frame absurdly tall

  const frameOf = (source) => [...document.querySelectorAll('iframe')].find((frame) => frame.contentWindow === source);

  addEventListener('message', (event) => {
    const data = event.data;
    if (!data || data.type !== 'attention-playground:size') return;
    const height = Number(data.height);
    if (!Number.isFinite(height) || height <= 0) return;
    const frame = frameOf(event.source);
    if (frame) frame.style.height = `${Math.min(MAX_HEIGHT, Math.ceil(height))}px`;
  });

  // Frames that loaded before this script sent their size to nobody: ask every frame again.
  const ask = () => {
    for (const frame of document.querySelectorAll('iframe')) frame.contentWindow?.postMessage({ type: 'attention-playground:measure' }, '*');
  };
  if (document.readyState === 'complete') ask();
  else addEventListener('load', ask);
})();
