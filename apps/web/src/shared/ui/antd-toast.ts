import Toast from 'antd-mobile/es/components/toast';
import { installAntdMobileRenderer } from './antd-render';

// Toast.show renders imperatively: the React 19 renderer goes in with it, not with the first screen.
installAntdMobileRenderer();

export default Toast;
