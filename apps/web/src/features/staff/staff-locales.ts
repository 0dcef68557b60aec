import { registerLocales } from '../../shared/i18n/i18n';

const zhCN = { staff: { currency: '显示币种', ccyName: { HKD: '港币', USD: '美元', CNY: '人民币' } } };
const zhHK = { staff: { currency: '顯示幣種', ccyName: { HKD: '港幣', USD: '美元', CNY: '人民幣' } } };
const en = { staff: { currency: 'Display currency', ccyName: { HKD: 'Hong Kong dollar', USD: 'US dollar', CNY: 'Renminbi' } } };

void registerLocales({ 'zh-CN': zhCN, 'zh-HK': zhHK, en });

declare module '../../shared/i18n/translator' {
  interface StringSets {
    staff: typeof zhCN;
  }
}
