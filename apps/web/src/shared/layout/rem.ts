/** Beyond this width (440/375 of the design) the layout stops growing. */
export const MAX_SCALED_WIDTH = 440;

/** Root font size in px: a tenth of the (capped) viewport width, so 1rem = 37.5px on the design. */
export const rootFontSizeFor = (viewportWidth: number) => Math.min(Math.max(viewportWidth, 0), MAX_SCALED_WIDTH) / 10;

export function installRemScaling(win: Window = window) {
  const apply = () => {
    win.document.documentElement.style.fontSize = `${rootFontSizeFor(win.document.documentElement.clientWidth || win.innerWidth)}px`;
  };
  apply();
  win.addEventListener('resize', apply);
  win.addEventListener('orientationchange', apply);
  win.addEventListener('pageshow', (event) => {
    if (event.persisted) apply();
  });
}
