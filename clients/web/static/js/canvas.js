// @ts-check
// canvas: high-DPI canvas sizing shared by the game plugins.

/**
 * setupCanvas sizes canvas to cssWidth x cssHeight CSS pixels with a backing
 * store of devicePixelRatio times that, and returns its 2-D context scaled
 * so drawing code works in CSS pixels.
 * @param {HTMLCanvasElement} canvas
 * @param {number} cssWidth
 * @param {number} cssHeight
 * @returns {CanvasRenderingContext2D}
 */
export function setupCanvas(canvas, cssWidth, cssHeight) {
  const dpr = Math.max(1, Math.min(4, window.devicePixelRatio || 1));
  const w = Math.max(1, Math.round(cssWidth * dpr));
  const hgt = Math.max(1, Math.round(cssHeight * dpr));
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== hgt) canvas.height = hgt;
  canvas.style.width = cssWidth + "px";
  canvas.style.height = cssHeight + "px";
  const ctx = canvas.getContext("2d");
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return ctx;
}
