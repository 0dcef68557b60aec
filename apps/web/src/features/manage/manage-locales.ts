import { registerLocales } from '../../shared/i18n/i18n';

const zhCN = {
  manage: {
    searchPlaceholder: '搜索客户姓名/账号/手机号',
    filter: '筛选',
    overview: '我的客户',
    overviewFiltered: '以下为筛选结果的统计',
    overviewAll: '全部客户',
    totalClients: '客户数',
    activeClients: '活跃客户',
    newThisMonth: '本月新增',
    byChannel: '渠道分布',
    totalAssets: '总资产（{{ccy}}）',
    shortcuts: '常用功能',
    searchClients: '搜索客户',
    filterClients: '筛选客户',
    motTodo: 'MOT 待办',
    kycBind: 'KYC 绑定',
    listTitle: '客户列表',
    listCount: '共 {{count}} 位',
    assetsLabel: '总资产({{ccy}})',
    netAssetsLabel: '净资产({{ccy}})',
    negativeEquity: '负资产',
    noMore: '已经到底了',
    loadingMore: '加载中',
    loadFailed: '加载失败，点击重试',
    pullToRefresh: '下拉刷新',
    releaseToRefresh: '释放立即刷新',
    refreshing: '正在刷新',
    refreshed: '已刷新',
    noClients: '没有符合条件的客户',
    noClientsDesc: '试试调整筛选条件或关键词',
    clearFilters: '清除筛选',
    keyword: '关键词：{{keyword}}',
    kycBound: '已绑定企微',
    kycUnbound: '未绑定企微',
    status: { active: '活跃', dormant: '休眠', closed: '已销户' },
    channel: { branch: '分行', wealth: '财富管理', online: '线上开户', ifa: '独立理财顾问' },
    market: { HK: '港股', US: '美股', SH: '沪市', SZ: '深市' },
    search: {
      placeholder: '姓名 / 手机号 / 账号 / 证件后四位',
      recent: '最近搜索',
      clearRecent: '清空',
      hint: '可按中英文姓名、手机号、账号或证件号后四位搜索',
      results: '找到 {{count}} 位客户',
      none: '没有找到相关客户',
      noneDesc: '请检查关键词，或换个字段搜索',
      account: '账号',
      idDoc: '证件',
    },
    filters: {
      channel: '渠道',
      status: '客户状态',
      assetRange: '总资产区间（{{ccy}}）',
      assetMin: '最低',
      assetMax: '最高',
      assetRangeError: '最低金额不能大于最高金额',
      openDate: '开户日期',
      openDateFrom: '开始日期',
      openDateTo: '结束日期',
      openDateError: '开始日期不能晚于结束日期',
      kyc: '企微绑定（KYC）',
      markets: '持仓市场',
      hasHolding: '是否持仓',
      holdingYes: '有持仓',
      holdingNo: '无持仓',
      any: '不限',
      sort: '排序',
      sortOptions: {
        totalAssets_desc: '总资产从高到低',
        totalAssets_asc: '总资产从低到高',
        openDate_desc: '开户日期最新',
        lastTrade_desc: '最近交易',
      },
      reset: '重置',
      apply: '查看结果',
      applyCount: '查看 {{count}} 位客户',
      assets: '资产 {{range}}',
      openedBetween: '开户 {{range}}',
      holdingIn: '持有{{markets}}',
      to: '至',
    },
  },
};

export type ManageMessages = typeof zhCN;

/**
 * The default language (also every language's fallback) ships with the pages; the others load when in use.
 * The page loaders (index.ts) wait for this, so a page renders with its strings in the current language.
 * (Not a top-level await: that made the bundler split the start-up code into many more chunks.)
 */
export const manageLocalesReady = registerLocales({
  'zh-CN': zhCN,
  'zh-HK': () => import('./manage-locales.zh-HK').then((module) => module.zhHK),
  en: () => import('./manage-locales.en').then((module) => module.en),
});

declare module '../../shared/i18n/translator' {
  interface StringSets {
    manage: ManageMessages;
  }
}
