import { createRoot, type Root } from 'react-dom/client';
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';

/**
 * antd-mobile's imperative APIs (Toast.show, Dialog.show) render with ReactDOM.render, which React 19
 * removed; give them a createRoot-based renderer instead. Installed by `antd-toast.ts` / `antd-dialog.ts`,
 * the only way the app imports Toast and Dialog, so the renderer (and rc-util's regenerator helpers under
 * antd's default one; size in ADR 0029) stays off the first screen.
 */
export function installAntdMobileRenderer() {
  unstableSetRender((node, container) => {
    const host = container as Element & { _brokerRoot?: Root };
    host._brokerRoot ??= createRoot(container);
    const root = host._brokerRoot;
    root.render(node);
    return async () => {
      await Promise.resolve();
      root.unmount();
      delete host._brokerRoot;
    };
  });
}
