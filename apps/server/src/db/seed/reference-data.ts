export type Market = 'HK' | 'US' | 'SH' | 'SZ';
export type CurrencyCode = 'HKD' | 'USD' | 'CNY';

export interface SecuritySeed {
  symbol: string;
  market: Market;
  /** As mainland readers and the exchanges' Simplified pages write it. */
  nameCn: string;
  /** As Hong Kong writes it (HKEX's short names: 滙豐控股, 長和), not a converted nameCn. */
  nameHk: string;
  nameEn: string;
  currency: CurrencyCode;
  lotSize: number;
  /** History is walked backwards from it. */
  price: number;
  weight: number;
}

/**
 * symbol, market, Chinese name (Simplified), Hong Kong name, English name, trading currency, lot size, price at the as-of
 * date, weight. The Hong Kong names are by hand: Hong Kong's usage is not a conversion (滙豐 not 匯豐, 英偉達 not 輝達);
 * migration 0031 holds the same.
 */
const SECURITY_TABLE: [string, Market, string, string, string, CurrencyCode, number, number, number][] = [
  ['0700.HK', 'HK', '腾讯控股', '騰訊控股', 'Tencent Holdings', 'HKD', 100, 518, 10],
  ['0005.HK', 'HK', '汇丰控股', '滙豐控股', 'HSBC Holdings', 'HKD', 400, 98.5, 9],
  ['9988.HK', 'HK', '阿里巴巴-W', '阿里巴巴-W', 'Alibaba Group', 'HKD', 100, 156.3, 8],
  ['1299.HK', 'HK', '友邦保险', '友邦保險', 'AIA Group', 'HKD', 200, 72.4, 6],
  ['0388.HK', 'HK', '香港交易所', '香港交易所', 'HKEX', 'HKD', 100, 412.2, 5],
  ['3690.HK', 'HK', '美团-W', '美團-W', 'Meituan', 'HKD', 100, 104.8, 6],
  ['0941.HK', 'HK', '中国移动', '中國移動', 'China Mobile', 'HKD', 500, 85.35, 5],
  ['1810.HK', 'HK', '小米集团-W', '小米集團-W', 'Xiaomi', 'HKD', 200, 42.16, 7],
  ['0939.HK', 'HK', '建设银行', '建設銀行', 'China Construction Bank', 'HKD', 1000, 7.62, 4],
  ['1398.HK', 'HK', '工商银行', '工商銀行', 'ICBC', 'HKD', 1000, 6.03, 3],
  ['2318.HK', 'HK', '中国平安', '中國平安', 'Ping An Insurance', 'HKD', 500, 55.2, 4],
  ['0001.HK', 'HK', '长和', '長和', 'CK Hutchison', 'HKD', 500, 48.1, 2],
  ['0016.HK', 'HK', '新鸿基地产', '新鴻基地產', 'Sun Hung Kai Properties', 'HKD', 500, 88.4, 2],
  ['0011.HK', 'HK', '恒生银行', '恒生銀行', 'Hang Seng Bank', 'HKD', 100, 114.6, 2],
  ['0002.HK', 'HK', '中电控股', '中電控股', 'CLP Holdings', 'HKD', 500, 65.9, 2],
  ['0003.HK', 'HK', '香港中华煤气', '香港中華煤氣', 'HK & China Gas', 'HKD', 1000, 6.98, 2],
  ['0883.HK', 'HK', '中国海洋石油', '中國海洋石油', 'CNOOC', 'HKD', 1000, 19.86, 3],
  ['1211.HK', 'HK', '比亚迪股份', '比亞迪股份', 'BYD Company', 'HKD', 500, 103.2, 4],
  ['9618.HK', 'HK', '京东集团-SW', '京東集團-SW', 'JD.com', 'HKD', 50, 134.5, 3],
  ['2800.HK', 'HK', '盈富基金', '盈富基金', 'Tracker Fund of Hong Kong', 'HKD', 500, 26.14, 5],
  ['0027.HK', 'HK', '银河娱乐', '銀河娛樂', 'Galaxy Entertainment', 'HKD', 1000, 38.25, 2],
  ['0981.HK', 'HK', '中芯国际', '中芯國際', 'SMIC', 'HKD', 500, 69.8, 3],
  ['1024.HK', 'HK', '快手-W', '快手-W', 'Kuaishou Technology', 'HKD', 100, 70.15, 2],
  ['2020.HK', 'HK', '安踏体育', '安踏體育', 'ANTA Sports', 'HKD', 200, 89.6, 2],
  ['AAPL', 'US', '苹果', '蘋果', 'Apple Inc.', 'USD', 1, 268.4, 8],
  ['NVDA', 'US', '英伟达', '英偉達', 'NVIDIA Corporation', 'USD', 1, 186.5, 9],
  ['MSFT', 'US', '微软', '微軟', 'Microsoft Corporation', 'USD', 1, 497.1, 6],
  ['TSLA', 'US', '特斯拉', '特斯拉', 'Tesla, Inc.', 'USD', 1, 408.9, 7],
  ['AMZN', 'US', '亚马逊', '亞馬遜', 'Amazon.com, Inc.', 'USD', 1, 229.7, 4],
  ['GOOGL', 'US', '谷歌-A', '谷歌-A', 'Alphabet Inc. Class A', 'USD', 1, 289.3, 4],
  ['META', 'US', 'Meta Platforms', 'Meta Platforms', 'Meta Platforms, Inc.', 'USD', 1, 597.7, 3],
  ['AMD', 'US', '超威半导体', '超微半導體', 'Advanced Micro Devices', 'USD', 1, 238.6, 3],
  ['BABA', 'US', '阿里巴巴', '阿里巴巴', 'Alibaba Group ADR', 'USD', 1, 159.9, 3],
  ['TSM', 'US', '台积电', '台積電', 'Taiwan Semiconductor ADR', 'USD', 1, 287.2, 3],
  ['JPM', 'US', '摩根大通', '摩根大通', 'JPMorgan Chase & Co.', 'USD', 1, 302.5, 2],
  ['KO', 'US', '可口可乐', '可口可樂', 'The Coca-Cola Company', 'USD', 1, 70.3, 1],
  ['QQQ', 'US', '纳指100ETF', '納指100ETF', 'Invesco QQQ Trust', 'USD', 1, 598.4, 3],
  ['SPY', 'US', '标普500ETF', '標普500ETF', 'SPDR S&P 500 ETF', 'USD', 1, 661.2, 3],
  ['600519.SH', 'SH', '贵州茅台', '貴州茅台', 'Kweichow Moutai', 'CNY', 100, 1452, 4],
  ['601318.SH', 'SH', '中国平安', '中國平安', 'Ping An Insurance (A)', 'CNY', 100, 57.3, 3],
  ['600036.SH', 'SH', '招商银行', '招商銀行', 'China Merchants Bank', 'CNY', 100, 42.18, 3],
  ['601012.SH', 'SH', '隆基绿能', '隆基綠能', 'LONGi Green Energy', 'CNY', 100, 18.95, 2],
  ['000001.SZ', 'SZ', '平安银行', '平安銀行', 'Ping An Bank', 'CNY', 100, 11.52, 3],
  ['000858.SZ', 'SZ', '五粮液', '五糧液', 'Wuliangye Yibin', 'CNY', 100, 118.4, 2],
  ['300750.SZ', 'SZ', '宁德时代', '寧德時代', 'CATL', 'CNY', 100, 381.6, 3],
  ['000333.SZ', 'SZ', '美的集团', '美的集團', 'Midea Group', 'CNY', 100, 73.05, 2],
];

export const SECURITIES: SecuritySeed[] = SECURITY_TABLE.map(
  ([symbol, market, nameCn, nameHk, nameEn, currency, lotSize, price, weight]) => ({
    symbol,
    market,
    nameCn,
    nameHk,
    nameEn,
    currency,
    lotSize,
    price,
    weight,
  }),
);

/** Units per 1 HKD at the as-of date. */
export const LATEST_RATES: Record<CurrencyCode, number> = { HKD: 1, USD: 0.1285, CNY: 0.931 };

export const CHANNELS = ['branch', 'online', 'wealth', 'ifa'] as const;
export type Channel = (typeof CHANNELS)[number];

export interface StaffSeed {
  userid: string;
  name: string;
  email: string;
  mobile: string;
  position: string;
  channel: Channel;
}

/** userid, name, email, mobile, position, channel. */
export const EXTRA_STAFF: StaffSeed[] = (
  [
    ['hoyeeman', '何绮雯', 'yeeman.ho@fxhl.example.com', '+852 9456 7804', '客户经理', 'branch'],
    ['laukinwah', '刘健华', 'kinwah.lau@fxhl.example.com', '+852 6567 8905', '高级客户经理', 'wealth'],
    ['tsesuetying', '谢雪盈', 'suetying.tse@fxhl.example.com', '+852 5678 9006', '财富顾问', 'ifa'],
    ['liuyang', '刘洋', 'yang.liu@fxhl.example.com', '+86 139 1234 5607', '客户经理', 'online'],
    ['ngtszkin', '吴子健', 'tszkin.ng@fxhl.example.com', '+852 9789 0108', '客户经理', 'online'],
    ['kwokmeiling', '郭美玲', 'meiling.kwok@fxhl.example.com', '+852 6890 1209', '私人财富经理', 'wealth'],
  ] as const
).map(([userid, name, email, mobile, position, channel]) => ({ userid, name, email, mobile, position, channel }));

export interface DemoWecomMember extends StaffSeed {
  gender: '1' | '2';
}

/**
 * The staff the WeCom emulator offers to sign in as, seeded first with larger books: userid, name, position, email,
 * mobile, gender, channel.
 */
export const DEMO_STAFF: DemoWecomMember[] = (
  [
    ['chanwaiman', '陈伟文', '高级客户经理', 'waiman.chan@fxhl.example.com', '+852 9123 4501', '1', 'branch'],
    ['leekaying', '李嘉欣', '客户经理', 'kaying.lee@fxhl.example.com', '+852 9234 5602', '2', 'branch'],
    ['wongchishing', '黄志诚', '客户经理', 'chishing.wong@fxhl.example.com', '+852 6345 6703', '1', 'wealth'],
    ['zhangmin', '张敏', '财富顾问', 'min.zhang@fxhl.example.com', '+86 138 0013 8004', '2', 'online'],
  ] as const
).map(([userid, name, position, email, mobile, gender, channel]) => ({ userid, name, position, email, mobile, gender, channel }));

/** External contacts, each followed by some of DEMO_STAFF. */
export const DEMO_EXTERNAL_CONTACTS: { externalUserId: string; name: string; gender: 1 | 2; followedBy: string[] }[] = [
  { externalUserId: 'wmEmu0001HoKwokLeung', name: '何国良', gender: 1, followedBy: ['chanwaiman'] },
  { externalUserId: 'wmEmu0002TseMeiYee', name: '谢美仪', gender: 2, followedBy: ['chanwaiman', 'leekaying'] },
  { externalUserId: 'wmEmu0003LauChiKeung', name: '刘志强', gender: 1, followedBy: ['leekaying'] },
  { externalUserId: 'wmEmu0004ChowSiuFan', name: '周小凡', gender: 2, followedBy: ['wongchishing'] },
  { externalUserId: 'wmEmu0005WangLei', name: '王磊', gender: 1, followedBy: ['zhangmin', 'chanwaiman'] },
];

/** [character, Cantonese romanisation, pinyin, weight] */
export const SURNAMES: [string, string, string, number][] = [
  ['陈', 'CHAN', 'CHEN', 10],
  ['李', 'LEE', 'LI', 9],
  ['张', 'CHEUNG', 'ZHANG', 8],
  ['黄', 'WONG', 'HUANG', 9],
  ['王', 'WONG', 'WANG', 7],
  ['刘', 'LAU', 'LIU', 6],
  ['林', 'LAM', 'LIN', 6],
  ['吴', 'NG', 'WU', 5],
  ['梁', 'LEUNG', 'LIANG', 6],
  ['何', 'HO', 'HE', 5],
  ['郭', 'KWOK', 'GUO', 3],
  ['罗', 'LAW', 'LUO', 3],
  ['杨', 'YEUNG', 'YANG', 4],
  ['郑', 'CHENG', 'ZHENG', 4],
  ['周', 'CHOW', 'ZHOU', 4],
  ['谢', 'TSE', 'XIE', 3],
  ['邓', 'TANG', 'DENG', 3],
  ['曾', 'TSANG', 'ZENG', 3],
  ['冯', 'FUNG', 'FENG', 3],
  ['蔡', 'CHOI', 'CAI', 3],
  ['许', 'HUI', 'XU', 3],
  ['朱', 'CHU', 'ZHU', 3],
  ['徐', 'TSUI', 'XU', 2],
  ['苏', 'SO', 'SU', 2],
  ['叶', 'YIP', 'YE', 3],
  ['马', 'MA', 'MA', 2],
  ['麦', 'MAK', 'MAI', 2],
  ['胡', 'WU', 'HU', 2],
  ['赵', 'CHIU', 'ZHAO', 2],
  ['孙', 'SUEN', 'SUN', 2],
  ['高', 'KO', 'GAO', 2],
  ['余', 'YU', 'YU', 2],
  ['潘', 'POON', 'PAN', 2],
  ['袁', 'YUEN', 'YUAN', 1],
  ['邱', 'YAU', 'QIU', 1],
  ['卢', 'LO', 'LU', 2],
  ['钟', 'CHUNG', 'ZHONG', 2],
  ['彭', 'PANG', 'PENG', 1],
  ['甘', 'KAM', 'GAN', 1],
  ['韩', 'HON', 'HAN', 1],
];
export const SURNAME_WEIGHTS = SURNAMES.map((entry) => entry[3]);

/** [character, Cantonese, pinyin] */
export const GIVEN_MALE: [string, string, string][] = [
  ['伟', 'Wai', 'Wei'],
  ['文', 'Man', 'Wen'],
  ['志', 'Chi', 'Zhi'],
  ['诚', 'Shing', 'Cheng'],
  ['家', 'Ka', 'Jia'],
  ['明', 'Ming', 'Ming'],
  ['国', 'Kwok', 'Guo'],
  ['华', 'Wa', 'Hua'],
  ['俊', 'Chun', 'Jun'],
  ['杰', 'Kit', 'Jie'],
  ['浩', 'Ho', 'Hao'],
  ['宇', 'Yu', 'Yu'],
  ['天', 'Tin', 'Tian'],
  ['建', 'Kin', 'Jian'],
  ['永', 'Wing', 'Yong'],
  ['锦', 'Kam', 'Jin'],
  ['海', 'Hoi', 'Hai'],
  ['荣', 'Wing', 'Rong'],
  ['达', 'Tat', 'Da'],
  ['强', 'Keung', 'Qiang'],
  ['兴', 'Hing', 'Xing'],
  ['振', 'Chun', 'Zhen'],
  ['德', 'Tak', 'De'],
  ['鸿', 'Hung', 'Hong'],
  ['凯', 'Hoi', 'Kai'],
  ['健', 'Kin', 'Jian'],
  ['安', 'On', 'An'],
  ['子', 'Tsz', 'Zi'],
  ['辉', 'Fai', 'Hui'],
  ['龙', 'Lung', 'Long'],
];
export const GIVEN_FEMALE: [string, string, string][] = [
  ['嘉', 'Ka', 'Jia'],
  ['欣', 'Yan', 'Xin'],
  ['敏', 'Man', 'Min'],
  ['美', 'Mei', 'Mei'],
  ['玲', 'Ling', 'Ling'],
  ['丽', 'Lai', 'Li'],
  ['思', 'Sze', 'Si'],
  ['婷', 'Ting', 'Ting'],
  ['慧', 'Wai', 'Hui'],
  ['颖', 'Wing', 'Ying'],
  ['雅', 'Nga', 'Ya'],
  ['静', 'Ching', 'Jing'],
  ['晓', 'Hiu', 'Xiao'],
  ['芳', 'Fong', 'Fang'],
  ['秀', 'Sau', 'Xiu'],
  ['宝', 'Po', 'Bao'],
  ['佩', 'Pui', 'Pei'],
  ['淑', 'Shuk', 'Shu'],
  ['雪', 'Suet', 'Xue'],
  ['梅', 'Mui', 'Mei'],
  ['翠', 'Chui', 'Cui'],
  ['琪', 'Kei', 'Qi'],
  ['咏', 'Wing', 'Yong'],
  ['诗', 'Sze', 'Shi'],
];
export const ENGLISH_MALE = [
  'Peter',
  'David',
  'Michael',
  'Eric',
  'Kelvin',
  'Raymond',
  'Jason',
  'Alan',
  'Tony',
  'Vincent',
  'Ivan',
  'Kenneth',
  'Gary',
  'Wilson',
  'Samuel',
  'Patrick',
  'Derek',
  'Terence',
];
export const ENGLISH_FEMALE = [
  'Mary',
  'Carmen',
  'Winnie',
  'Karen',
  'Michelle',
  'Jennifer',
  'Grace',
  'Vivian',
  'Cindy',
  'Joyce',
  'Queenie',
  'Fiona',
  'Irene',
  'Sandy',
  'Ada',
  'Bonnie',
  'Yvonne',
  'Phoebe',
];

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

export const CUSTOMER_TAGS = [
  'VIP',
  '高净值',
  '美股偏好',
  '港股通',
  '新客户',
  '长线投资',
  '短线交易',
  '期权意向',
  '退休规划',
  '家族客户',
  '需粤语服务',
  '需普通话服务',
];

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

export const MAINLAND_REGIONS = ['440301', '440106', '310104', '110105', '350203', '330106', '320106', '440604'];
