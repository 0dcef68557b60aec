/** Static reference data the generator draws from: real tickers, names, brokers, channels. */

export type Market = 'HK' | 'US' | 'SH' | 'SZ';
export type CurrencyCode = 'HKD' | 'USD' | 'CNY';

export interface SecuritySeed {
  symbol: string;
  market: Market;
  nameCn: string;
  nameEn: string;
  currency: CurrencyCode;
  lotSize: number;
  /** Price at the as-of date; history is walked backwards from it. */
  price: number;
  /** Relative popularity with customers. */
  weight: number;
}

export const SECURITIES: SecuritySeed[] = [
  { symbol: '0700.HK', market: 'HK', nameCn: '腾讯控股', nameEn: 'Tencent Holdings', currency: 'HKD', lotSize: 100, price: 518, weight: 10 },
  { symbol: '0005.HK', market: 'HK', nameCn: '汇丰控股', nameEn: 'HSBC Holdings', currency: 'HKD', lotSize: 400, price: 98.5, weight: 9 },
  { symbol: '9988.HK', market: 'HK', nameCn: '阿里巴巴-W', nameEn: 'Alibaba Group', currency: 'HKD', lotSize: 100, price: 156.3, weight: 8 },
  { symbol: '1299.HK', market: 'HK', nameCn: '友邦保险', nameEn: 'AIA Group', currency: 'HKD', lotSize: 200, price: 72.4, weight: 6 },
  { symbol: '0388.HK', market: 'HK', nameCn: '香港交易所', nameEn: 'HKEX', currency: 'HKD', lotSize: 100, price: 412.2, weight: 5 },
  { symbol: '3690.HK', market: 'HK', nameCn: '美团-W', nameEn: 'Meituan', currency: 'HKD', lotSize: 100, price: 104.8, weight: 6 },
  { symbol: '0941.HK', market: 'HK', nameCn: '中国移动', nameEn: 'China Mobile', currency: 'HKD', lotSize: 500, price: 85.35, weight: 5 },
  { symbol: '1810.HK', market: 'HK', nameCn: '小米集团-W', nameEn: 'Xiaomi', currency: 'HKD', lotSize: 200, price: 42.16, weight: 7 },
  { symbol: '0939.HK', market: 'HK', nameCn: '建设银行', nameEn: 'China Construction Bank', currency: 'HKD', lotSize: 1000, price: 7.62, weight: 4 },
  { symbol: '1398.HK', market: 'HK', nameCn: '工商银行', nameEn: 'ICBC', currency: 'HKD', lotSize: 1000, price: 6.03, weight: 3 },
  { symbol: '2318.HK', market: 'HK', nameCn: '中国平安', nameEn: 'Ping An Insurance', currency: 'HKD', lotSize: 500, price: 55.2, weight: 4 },
  { symbol: '0001.HK', market: 'HK', nameCn: '长和', nameEn: 'CK Hutchison', currency: 'HKD', lotSize: 500, price: 48.1, weight: 2 },
  { symbol: '0016.HK', market: 'HK', nameCn: '新鸿基地产', nameEn: 'Sun Hung Kai Properties', currency: 'HKD', lotSize: 500, price: 88.4, weight: 2 },
  { symbol: '0011.HK', market: 'HK', nameCn: '恒生银行', nameEn: 'Hang Seng Bank', currency: 'HKD', lotSize: 100, price: 114.6, weight: 2 },
  { symbol: '0002.HK', market: 'HK', nameCn: '中电控股', nameEn: 'CLP Holdings', currency: 'HKD', lotSize: 500, price: 65.9, weight: 2 },
  { symbol: '0003.HK', market: 'HK', nameCn: '香港中华煤气', nameEn: 'HK & China Gas', currency: 'HKD', lotSize: 1000, price: 6.98, weight: 2 },
  { symbol: '0883.HK', market: 'HK', nameCn: '中国海洋石油', nameEn: 'CNOOC', currency: 'HKD', lotSize: 1000, price: 19.86, weight: 3 },
  { symbol: '1211.HK', market: 'HK', nameCn: '比亚迪股份', nameEn: 'BYD Company', currency: 'HKD', lotSize: 500, price: 103.2, weight: 4 },
  { symbol: '9618.HK', market: 'HK', nameCn: '京东集团-SW', nameEn: 'JD.com', currency: 'HKD', lotSize: 50, price: 134.5, weight: 3 },
  { symbol: '2800.HK', market: 'HK', nameCn: '盈富基金', nameEn: 'Tracker Fund of Hong Kong', currency: 'HKD', lotSize: 500, price: 26.14, weight: 5 },
  { symbol: '0027.HK', market: 'HK', nameCn: '银河娱乐', nameEn: 'Galaxy Entertainment', currency: 'HKD', lotSize: 1000, price: 38.25, weight: 2 },
  { symbol: '0981.HK', market: 'HK', nameCn: '中芯国际', nameEn: 'SMIC', currency: 'HKD', lotSize: 500, price: 69.8, weight: 3 },
  { symbol: '1024.HK', market: 'HK', nameCn: '快手-W', nameEn: 'Kuaishou Technology', currency: 'HKD', lotSize: 100, price: 70.15, weight: 2 },
  { symbol: '2020.HK', market: 'HK', nameCn: '安踏体育', nameEn: 'ANTA Sports', currency: 'HKD', lotSize: 200, price: 89.6, weight: 2 },
  { symbol: 'AAPL', market: 'US', nameCn: '苹果', nameEn: 'Apple Inc.', currency: 'USD', lotSize: 1, price: 268.4, weight: 8 },
  { symbol: 'NVDA', market: 'US', nameCn: '英伟达', nameEn: 'NVIDIA Corporation', currency: 'USD', lotSize: 1, price: 186.5, weight: 9 },
  { symbol: 'MSFT', market: 'US', nameCn: '微软', nameEn: 'Microsoft Corporation', currency: 'USD', lotSize: 1, price: 497.1, weight: 6 },
  { symbol: 'TSLA', market: 'US', nameCn: '特斯拉', nameEn: 'Tesla, Inc.', currency: 'USD', lotSize: 1, price: 408.9, weight: 7 },
  { symbol: 'AMZN', market: 'US', nameCn: '亚马逊', nameEn: 'Amazon.com, Inc.', currency: 'USD', lotSize: 1, price: 229.7, weight: 4 },
  { symbol: 'GOOGL', market: 'US', nameCn: '谷歌-A', nameEn: 'Alphabet Inc. Class A', currency: 'USD', lotSize: 1, price: 289.3, weight: 4 },
  { symbol: 'META', market: 'US', nameCn: 'Meta Platforms', nameEn: 'Meta Platforms, Inc.', currency: 'USD', lotSize: 1, price: 597.7, weight: 3 },
  { symbol: 'AMD', market: 'US', nameCn: '超威半导体', nameEn: 'Advanced Micro Devices', currency: 'USD', lotSize: 1, price: 238.6, weight: 3 },
  { symbol: 'BABA', market: 'US', nameCn: '阿里巴巴', nameEn: 'Alibaba Group ADR', currency: 'USD', lotSize: 1, price: 159.9, weight: 3 },
  { symbol: 'TSM', market: 'US', nameCn: '台积电', nameEn: 'Taiwan Semiconductor ADR', currency: 'USD', lotSize: 1, price: 287.2, weight: 3 },
  { symbol: 'JPM', market: 'US', nameCn: '摩根大通', nameEn: 'JPMorgan Chase & Co.', currency: 'USD', lotSize: 1, price: 302.5, weight: 2 },
  { symbol: 'KO', market: 'US', nameCn: '可口可乐', nameEn: 'The Coca-Cola Company', currency: 'USD', lotSize: 1, price: 70.3, weight: 1 },
  { symbol: 'QQQ', market: 'US', nameCn: '纳指100ETF', nameEn: 'Invesco QQQ Trust', currency: 'USD', lotSize: 1, price: 598.4, weight: 3 },
  { symbol: 'SPY', market: 'US', nameCn: '标普500ETF', nameEn: 'SPDR S&P 500 ETF', currency: 'USD', lotSize: 1, price: 661.2, weight: 3 },
  { symbol: '600519.SH', market: 'SH', nameCn: '贵州茅台', nameEn: 'Kweichow Moutai', currency: 'CNY', lotSize: 100, price: 1452, weight: 4 },
  { symbol: '601318.SH', market: 'SH', nameCn: '中国平安', nameEn: 'Ping An Insurance (A)', currency: 'CNY', lotSize: 100, price: 57.3, weight: 3 },
  { symbol: '600036.SH', market: 'SH', nameCn: '招商银行', nameEn: 'China Merchants Bank', currency: 'CNY', lotSize: 100, price: 42.18, weight: 3 },
  { symbol: '601012.SH', market: 'SH', nameCn: '隆基绿能', nameEn: 'LONGi Green Energy', currency: 'CNY', lotSize: 100, price: 18.95, weight: 2 },
  { symbol: '000001.SZ', market: 'SZ', nameCn: '平安银行', nameEn: 'Ping An Bank', currency: 'CNY', lotSize: 100, price: 11.52, weight: 3 },
  { symbol: '000858.SZ', market: 'SZ', nameCn: '五粮液', nameEn: 'Wuliangye Yibin', currency: 'CNY', lotSize: 100, price: 118.4, weight: 2 },
  { symbol: '300750.SZ', market: 'SZ', nameCn: '宁德时代', nameEn: 'CATL', currency: 'CNY', lotSize: 100, price: 381.6, weight: 3 },
  { symbol: '000333.SZ', market: 'SZ', nameCn: '美的集团', nameEn: 'Midea Group', currency: 'CNY', lotSize: 100, price: 73.05, weight: 2 },
];

/** Units per 1 HKD at the as-of date (HKD base; amount_in_ccy = amount_hkd × rate). */
export const LATEST_RATES: Record<CurrencyCode, number> = { HKD: 1, USD: 0.1285, CNY: 0.931 };

export const CHANNELS = ['branch', 'online', 'wealth', 'ifa'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface StaffSeed {
  wecomUserId: string;
  name: string;
  email: string;
  mobile: string;
  position: string;
  channel: Channel;
}

/** Beyond the emulator's four: six more client managers, so the demo has ten. */
export const EXTRA_STAFF: StaffSeed[] = [
  { wecomUserId: 'hoyeeman', name: '何绮雯', email: 'yeeman.ho@fxhl.example.com', mobile: '+852 9456 7804', position: '客户经理', channel: 'branch' },
  { wecomUserId: 'laukinwah', name: '刘健华', email: 'kinwah.lau@fxhl.example.com', mobile: '+852 6567 8905', position: '高级客户经理', channel: 'wealth' },
  { wecomUserId: 'tsesuetying', name: '谢雪盈', email: 'suetying.tse@fxhl.example.com', mobile: '+852 5678 9006', position: '财富顾问', channel: 'ifa' },
  { wecomUserId: 'liuyang', name: '刘洋', email: 'yang.liu@fxhl.example.com', mobile: '+86 139 1234 5607', position: '客户经理', channel: 'online' },
  { wecomUserId: 'ngtszkin', name: '吴子健', email: 'tszkin.ng@fxhl.example.com', mobile: '+852 9789 0108', position: '客户经理', channel: 'online' },
  { wecomUserId: 'kwokmeiling', name: '郭美玲', email: 'meiling.kwok@fxhl.example.com', mobile: '+852 6890 1209', position: '私人财富经理', channel: 'wealth' },
];

export const EMULATOR_STAFF_CHANNELS: Record<string, Channel> = {
  chanwaiman: 'branch',
  leekaying: 'branch',
  wongchishing: 'wealth',
  zhangmin: 'online',
};

/** [character, Cantonese romanisation, pinyin, weight] */
export const SURNAMES: [string, string, string, number][] = [
  ['陈', 'CHAN', 'CHEN', 10], ['李', 'LEE', 'LI', 9], ['张', 'CHEUNG', 'ZHANG', 8], ['黄', 'WONG', 'HUANG', 9], ['王', 'WONG', 'WANG', 7],
  ['刘', 'LAU', 'LIU', 6], ['林', 'LAM', 'LIN', 6], ['吴', 'NG', 'WU', 5], ['梁', 'LEUNG', 'LIANG', 6], ['何', 'HO', 'HE', 5],
  ['郭', 'KWOK', 'GUO', 3], ['罗', 'LAW', 'LUO', 3], ['杨', 'YEUNG', 'YANG', 4], ['郑', 'CHENG', 'ZHENG', 4], ['周', 'CHOW', 'ZHOU', 4],
  ['谢', 'TSE', 'XIE', 3], ['邓', 'TANG', 'DENG', 3], ['曾', 'TSANG', 'ZENG', 3], ['冯', 'FUNG', 'FENG', 3], ['蔡', 'CHOI', 'CAI', 3],
  ['许', 'HUI', 'XU', 3], ['朱', 'CHU', 'ZHU', 3], ['徐', 'TSUI', 'XU', 2], ['苏', 'SO', 'SU', 2], ['叶', 'YIP', 'YE', 3],
  ['马', 'MA', 'MA', 2], ['麦', 'MAK', 'MAI', 2], ['胡', 'WU', 'HU', 2], ['赵', 'CHIU', 'ZHAO', 2], ['孙', 'SUEN', 'SUN', 2],
  ['高', 'KO', 'GAO', 2], ['余', 'YU', 'YU', 2], ['潘', 'POON', 'PAN', 2], ['袁', 'YUEN', 'YUAN', 1], ['邱', 'YAU', 'QIU', 1],
  ['卢', 'LO', 'LU', 2], ['钟', 'CHUNG', 'ZHONG', 2], ['彭', 'PANG', 'PENG', 1], ['甘', 'KAM', 'GAN', 1], ['韩', 'HON', 'HAN', 1],
];
export const SURNAME_WEIGHTS = SURNAMES.map((entry) => entry[3]);

/** [character, Cantonese, pinyin] */
export const GIVEN_MALE: [string, string, string][] = [
  ['伟', 'Wai', 'Wei'], ['文', 'Man', 'Wen'], ['志', 'Chi', 'Zhi'], ['诚', 'Shing', 'Cheng'], ['家', 'Ka', 'Jia'], ['明', 'Ming', 'Ming'],
  ['国', 'Kwok', 'Guo'], ['华', 'Wa', 'Hua'], ['俊', 'Chun', 'Jun'], ['杰', 'Kit', 'Jie'], ['浩', 'Ho', 'Hao'], ['宇', 'Yu', 'Yu'],
  ['天', 'Tin', 'Tian'], ['建', 'Kin', 'Jian'], ['永', 'Wing', 'Yong'], ['锦', 'Kam', 'Jin'], ['海', 'Hoi', 'Hai'], ['荣', 'Wing', 'Rong'],
  ['达', 'Tat', 'Da'], ['强', 'Keung', 'Qiang'], ['兴', 'Hing', 'Xing'], ['振', 'Chun', 'Zhen'], ['德', 'Tak', 'De'], ['鸿', 'Hung', 'Hong'],
  ['凯', 'Hoi', 'Kai'], ['健', 'Kin', 'Jian'], ['安', 'On', 'An'], ['子', 'Tsz', 'Zi'], ['辉', 'Fai', 'Hui'], ['龙', 'Lung', 'Long'],
];
export const GIVEN_FEMALE: [string, string, string][] = [
  ['嘉', 'Ka', 'Jia'], ['欣', 'Yan', 'Xin'], ['敏', 'Man', 'Min'], ['美', 'Mei', 'Mei'], ['玲', 'Ling', 'Ling'], ['丽', 'Lai', 'Li'],
  ['思', 'Sze', 'Si'], ['婷', 'Ting', 'Ting'], ['慧', 'Wai', 'Hui'], ['颖', 'Wing', 'Ying'], ['雅', 'Nga', 'Ya'], ['静', 'Ching', 'Jing'],
  ['晓', 'Hiu', 'Xiao'], ['芳', 'Fong', 'Fang'], ['秀', 'Sau', 'Xiu'], ['宝', 'Po', 'Bao'], ['佩', 'Pui', 'Pei'], ['淑', 'Shuk', 'Shu'],
  ['雪', 'Suet', 'Xue'], ['梅', 'Mui', 'Mei'], ['翠', 'Chui', 'Cui'], ['琪', 'Kei', 'Qi'], ['咏', 'Wing', 'Yong'], ['诗', 'Sze', 'Shi'],
];
export const ENGLISH_MALE = ['Peter', 'David', 'Michael', 'Eric', 'Kelvin', 'Raymond', 'Jason', 'Alan', 'Tony', 'Vincent', 'Ivan', 'Kenneth', 'Gary', 'Wilson', 'Samuel', 'Patrick', 'Derek', 'Terence'];
export const ENGLISH_FEMALE = ['Mary', 'Carmen', 'Winnie', 'Karen', 'Michelle', 'Jennifer', 'Grace', 'Vivian', 'Cindy', 'Joyce', 'Queenie', 'Fiona', 'Irene', 'Sandy', 'Ada', 'Bonnie', 'Yvonne', 'Phoebe'];

export const EMAIL_DOMAINS_HK = ['gmail.com', 'yahoo.com.hk', 'outlook.com', 'hotmail.com', 'netvigator.com', 'icloud.com'];
export const EMAIL_DOMAINS_CN = ['qq.com', '163.com', '126.com', 'gmail.com', 'sina.com', 'outlook.com'];

export const COUNTERPARTY_BROKERS = [
  'Futu Securities',
  'Tiger Brokers',
  'HSBC Broking Securities',
  'Bank of China (Hong Kong)',
  'Hang Seng Investment Services',
  'Bright Smart Securities',
  'Phillip Securities',
  'Interactive Brokers',
  'Standard Chartered Bank (HK)',
  'China Merchants Securities (HK)',
];

export const CUSTOMER_TAGS = ['VIP', '高净值', '美股偏好', '港股通', '新客户', '长线投资', '短线交易', '期权意向', '退休规划', '家族客户', '需粤语服务', '需普通话服务'];

export const REMARKS = [
  '偏好科技股，关注港股通标的',
  '每月定投盈富基金',
  '退休人士，偏好高息股',
  '子女教育基金规划中',
  '对美股期权有兴趣，待风险评估',
  'Prefers English statements',
  '只接受电话联络，勿发微信',
  '年底有大额资金到期，可跟进',
  '曾投诉交易延迟，已妥善处理',
  '介绍人：现有客户',
];

/** HK mainland-ID regions: Guangdong, Shanghai, Beijing, Fujian, Zhejiang, Jiangsu cities. */
export const MAINLAND_REGIONS = ['440301', '440106', '310104', '110105', '350203', '330106', '320106', '440604'];
