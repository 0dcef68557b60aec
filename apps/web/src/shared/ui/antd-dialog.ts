import Dialog from 'antd-mobile/es/components/dialog';
import { installAntdMobileRenderer } from './antd-render';

// Dialog.alert/confirm render imperatively: the React 19 renderer goes in with it, not with the first screen.
installAntdMobileRenderer();

export default Dialog;
