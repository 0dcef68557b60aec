import { byLanguage, type Entries, type InOneLanguage } from '../../shared/i18n/by-language';
import { registerLocales } from '../../shared/i18n/i18n';

/** The strings of the client list, its search and its filters (pins, recents and saved filters: shortcuts-locales.ts). */
const manage = {
  // The English is whole on a 320 px phone beside Filter (the magnifier already says search).
  searchPlaceholder: ['搜索客户姓名/账号/手机号', '搜尋客戶姓名/賬號/手機號', 'Name, account or phone'],
  filter: ['筛选', '篩選', 'Filter'],
  overview: ['我的客户', '我的客戶', 'My clients'],
  overviewFiltered: ['以下为筛选结果的统计', '以下為篩選結果的統計', 'Figures for the filtered clients'],
  overviewAll: ['全部客户', '全部客戶', 'All clients'],
  totalClients: ['客户数', '客戶數', 'Clients'],
  activeClients: ['活跃客户', '活躍客戶', 'Active'],
  newThisMonth: ['本月新增', '本月新增', 'New (MTD)'],
  byChannel: ['渠道分布', '渠道分佈', 'By channel'],
  totalAssets: ['总资产（{{ccy}}）', '總資產（{{ccy}}）', 'Total assets ({{ccy}})'],
  shortcuts: ['常用功能', '常用功能', 'Shortcuts'],
  searchClients: ['搜索客户', '搜尋客戶', 'Search'],
  filterClients: ['筛选客户', '篩選客戶', 'Filter'],
  motTodo: ['MOT 待办', 'MOT 待辦', 'MOT to-do'],
  kycBind: ['KYC 绑定', 'KYC 綁定', 'KYC binding'],
  listTitle: ['客户列表', '客戶列表', 'Clients'],
  listCount: ['共 {{count}} 位', '共 {{count}} 位', '{{count}} in all'],
  assetsLabel: ['总资产({{ccy}})', '總資產({{ccy}})', 'Total assets ({{ccy}})'],
  netAssetsLabel: ['净资产({{ccy}})', '淨資產({{ccy}})', 'Net assets ({{ccy}})'],
  negativeEquity: ['负资产', '負資產', 'Negative equity'],
  noMore: ['已经到底了', '已經到底了', 'No more clients'],
  loadingMore: ['加载中', '載入中', 'Loading'],
  loadFailed: ['加载失败，点击重试', '載入失敗，點擊重試', 'Could not load. Tap to retry'],
  pullToRefresh: ['下拉刷新', '下拉重新整理', 'Pull to refresh'],
  releaseToRefresh: ['释放立即刷新', '放開即可重新整理', 'Release to refresh'],
  refreshing: ['正在刷新', '正在重新整理', 'Refreshing'],
  refreshed: ['已刷新', '已重新整理', 'Refreshed'],
  noClients: ['没有符合条件的客户', '沒有符合條件的客戶', 'No clients match'],
  noClientsDesc: ['试试调整筛选条件或关键词', '試試調整篩選條件或關鍵詞', 'Try other filters or keywords'],
  clearFilters: ['清除筛选', '清除篩選', 'Clear filters'],
  keyword: ['关键词：{{keyword}}', '關鍵詞：{{keyword}}', 'Keyword: {{keyword}}'],
  kycBound: ['已绑定企微', '已綁定企微', 'WeCom bound'],
  kycUnbound: ['未绑定企微', '未綁定企微', 'WeCom not bound'],
  status: {
    active: ['活跃', '活躍', 'Active'],
    dormant: ['休眠', '休眠', 'Dormant'],
    closed: ['已销户', '已銷戶', 'Closed'],
  },
  channel: {
    branch: ['分行', '分行', 'Branch'],
    wealth: ['财富管理', '財富管理', 'Wealth'],
    online: ['线上开户', '網上開戶', 'Online'],
    ifa: ['独立理财顾问', '獨立理財顧問', 'IFA'],
  },
  market: {
    HK: ['港股', '港股', 'HK'],
    US: ['美股', '美股', 'US'],
    SH: ['沪市', '滬市', 'Shanghai'],
    SZ: ['深市', '深市', 'Shenzhen'],
  },
  search: {
    placeholder: ['姓名 / 手机号 / 账号 / 证件后四位', '姓名 / 手機號 / 賬號 / 證件後四位', 'Name, phone, account or ID last 4'],
    cancel: ['取消', '取消', 'Cancel'],
    recent: ['最近搜索', '最近搜尋', 'Recent searches'],
    clearRecent: ['清空', '清空', 'Clear'],
    hint: [
      '可按中英文姓名、手机号、账号或证件号后四位搜索',
      '可按中英文姓名、手機號、賬號或證件號後四位搜尋',
      'Search by Chinese or English name, phone, account number or the last four characters of the ID',
    ],
    results: ['找到 {{count}} 位客户', '找到 {{count}} 位客戶', 'Clients found: {{count}}'],
    none: ['没有找到相关客户', '沒有找到相關客戶', 'No clients found'],
    noneDesc: ['请检查关键词，或换个字段搜索', '請檢查關鍵詞，或換個欄位搜尋', 'Check the keyword or search another field'],
    account: ['账号', '賬號', 'Account'],
    idDoc: ['证件', '證件', 'ID'],
  },
  filters: {
    channel: ['渠道', '渠道', 'Channel'],
    status: ['客户状态', '客戶狀態', 'Status'],
    assetRange: ['总资产区间（{{ccy}}）', '總資產區間（{{ccy}}）', 'Total assets ({{ccy}})'],
    assetMin: ['最低', '最低', 'Min'],
    assetMax: ['最高', '最高', 'Max'],
    assetRangeError: ['最低金额不能大于最高金额', '最低金額不能大於最高金額', 'The minimum cannot be above the maximum'],
    openDate: ['开户日期', '開戶日期', 'Account opened'],
    openDateFrom: ['开始日期', '開始日期', 'From'],
    openDateTo: ['结束日期', '結束日期', 'To'],
    openDateError: ['开始日期不能晚于结束日期', '開始日期不能晚於結束日期', 'The start date cannot be after the end date'],
    kyc: ['企微绑定（KYC）', '企微綁定（KYC）', 'WeCom binding (KYC)'],
    markets: ['持仓市场', '持倉市場', 'Holds in market'],
    hasHolding: ['是否持仓', '是否持倉', 'Holdings'],
    holdingYes: ['有持仓', '有持倉', 'Has holdings'],
    holdingNo: ['无持仓', '無持倉', 'No holdings'],
    any: ['不限', '不限', 'Any'],
    sort: ['排序', '排序', 'Sort by'],
    sortOptions: {
      totalAssets_desc: ['总资产从高到低', '總資產從高到低', 'Assets, high to low'],
      totalAssets_asc: ['总资产从低到高', '總資產從低到高', 'Assets, low to high'],
      openDate_desc: ['开户日期最新', '開戶日期最新', 'Newest accounts'],
      lastTrade_desc: ['最近交易', '最近交易', 'Latest trade'],
    },
    reset: ['重置', '重設', 'Reset'],
    apply: ['查看结果', '查看結果', 'Show results'],
    applyCount: ['查看 {{count}} 位客户', '查看 {{count}} 位客戶', { one: 'Show {{count}} client', other: 'Show {{count}} clients' }],
    assets: ['资产 {{range}}', '資產 {{range}}', 'Assets {{range}}'],
    openedBetween: ['开户 {{range}}', '開戶 {{range}}', 'Opened {{range}}'],
    holdingIn: ['持有{{markets}}', '持有{{markets}}', 'Holds {{markets}}'],
    to: ['至', '至', 'to'],
  },
} satisfies Entries;

export const manageLocalesReady = registerLocales(byLanguage({ manage }));

declare module '../../shared/i18n/translator' {
  interface StringSets {
    manage: InOneLanguage<{ manage: typeof manage }>;
  }
}
