import { createRoot, type Root } from 'react-dom/client';
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';

/**
 * antd-mobile's Toast.show and Dialog.show render with ReactDOM.render, gone in React 19: a createRoot renderer instead, installed by
 * `antd-toast.ts` / `antd-dialog.ts` (the app's only way to them), so it stays off the first screen (ADR 0029).
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
