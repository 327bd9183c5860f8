// vramcalc embed loader (docs/embedding.md). Put it once on a page that embeds vramcalc:
//
//   <iframe data-vramcalc src="https://YOUR-HOST/vramcalc/embed.html#v=3&mp=llama-3-8b"
//           title="vramcalc" style="width: 100%; max-width: 640px; border: 0"></iframe>
//   <script src="https://YOUR-HOST/vramcalc/vramcalc-embed.js" async></script>
//
// Each iframe marked data-vramcalc then takes the height its content needs, at any width, and
// follows it as the reader resizes the page or changes a setting inside.
//
// The height protocol, all of it: an embed posts {type: "vramcalc:height", height: <CSS px>} to
// its parent whenever the height it needs changes. This loader accepts exactly that message, only
// from the window of one of its marked iframes and only from that iframe's own origin; it ignores
// every other message. It sends nothing, and the embed listens to no messages at all.
(() => {
  if (window.vramcalcEmbedLoader) return;  // included twice: one listener is enough
  window.vramcalcEmbedLoader = true;
  const MIN = 120, MAX = 8000;
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (!data || typeof data !== 'object' || Object.keys(data).length !== 2 || data.type !== 'vramcalc:height') return;
    const height = data.height;
    if (typeof height !== 'number' || !Number.isFinite(height)) return;
    for (const frame of document.querySelectorAll('iframe[data-vramcalc]')) {
      if (frame.contentWindow !== event.source) continue;
      let origin;
      try { origin = new URL(frame.src, location.href).origin; } catch (e) { return; }
      if (event.origin !== origin) return;
      frame.style.height = `${Math.round(Math.min(MAX, Math.max(MIN, height)))}px`;
      return;
    }
  });
})();
