import { registerLocales } from '../../shared/i18n/i18n';
import { byLanguage, type Entries, type InOneLanguage } from '../../shared/i18n/by-language';
import { registerContactLabels } from '../../shared/i18n/contact-labels';
import { registerMotRuleNames } from '../../shared/i18n/mot-rule-names';

/** The MOT feature's strings, under `mot.`; registered with i18n when the feature's first page loads. */
const mot = {
  status: { new: ['未读', '未讀', 'Unread'], seen: ['待处理', '待處理', 'To do'], handled: ['已处理', '已處理', 'Handled'] },
  method: {
    fps: ['转数快', '轉數快', 'FPS'],
    bank_transfer: ['银行转账', '銀行轉賬', 'Bank transfer'],
    cheque: ['支票', '支票', 'Cheque'],
    edda: ['eDDA', 'eDDA', 'eDDA'],
  },
  contactChange: {
    del_follow_user: ['客户删除了您', '客戶刪除了您', 'Customer removed you'],
    del_external_contact: ['您删除了客户', '您刪除了客戶', 'You removed the customer'],
    transferred: ['已转交其他成员', '已轉交其他成員', 'Handed to another member'],
  },
  home: {
    today: ['今天', '今天', 'Today'],
    dayPending: ['{{day}}待办', '{{day}}待辦', '{{day}} · to do'],
    allPending: ['全部待办 {{count}}', '全部待辦 {{count}}', '{{count}} to do in all'],
    unseenTotal: ['未读 {{count}}', '未讀 {{count}}', '{{count}} unread'],
    clientsTotal: ['共 {{count}} 位客户', '共 {{count}} 位客戶', { one: '{{count}} client', other: '{{count}} clients' }],
    eventsTotal: ['共 {{count}} 个事件', '共 {{count}} 個事件', { one: '{{count}} event', other: '{{count}} events' }],
    all: ['全部', '全部', 'All'],
    byType: ['事件类型', '事件類型', 'Event types'],
    listFolded: ['按客户汇总', '按客戶匯總', 'By client'],
    listUnfolded: ['按事件逐条', '按事件逐條', 'By event'],
    eventsCount: ['{{count}} 个事件', '{{count}} 個事件', { one: '{{count}} event', other: '{{count}} events' }],
    empty: ['当天没有待办事件', '當天沒有待辦事件', 'Nothing to do on this day'],
    emptyDescription: ['选择其他日期查看，或稍后再来', '選擇其他日期查看，或稍後再來', 'Pick another day, or check back later'],
    emptyRule: ['当天没有此类事件', '當天沒有此類事件', 'No events of this type on this day'],
    loadMore: ['加载更多', '載入更多', 'Load more'],
    noMore: ['没有更多了', '沒有更多了', 'No more'],
    unseen: ['未读', '未讀', 'Unread'],
    history: ['服务记录', '服務記錄', 'Service records'],
    settings: ['设置', '設定', 'Settings'],
    datesLabel: ['待办日期', '待辦日期', 'Days with events'],
  },
  weekday: [
    ['周日', '周一', '周二', '周三', '周四', '周五', '周六'],
    ['週日', '週一', '週二', '週三', '週四', '週五', '週六'],
    ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  ],
  detail: {
    why: ['触发原因', '觸發原因', 'Why it fired'],
    client: ['客户', '客戶', 'Client'],
    dueDate: ['事件日期', '事件日期', 'Event date'],
    createdAt: ['生成时间', '生成時間', 'Raised'],
    handle: ['处理事件', '處理事件', 'Handle'],
    serviceRecord: ['服务记录', '服務記錄', 'Service record'],
    profile: ['客户资料', '客戶資料', 'Profile'],
    trades: ['交易数据', '交易數據', 'Trades'],
    moneyRecords: ['出入金记录', '出入金記錄', 'Deposits & withdrawals'],
    allEvents: ['该客户全部事件', '該客戶全部事件', "All of this client's events"],
    riskLevel: ['风险等级', '風險等級', 'Risk level'],
    openDate: ['开户日期', '開戶日期', 'Opened'],
    totalAssets: ['总资产（{{ccy}}）', '總資產（{{ccy}}）', 'Total assets ({{ccy}})'],
    netAssets: ['净资产（{{ccy}}）', '淨資產（{{ccy}}）', 'Net assets ({{ccy}})'],
    negativeEquity: ['负资产', '負資產', 'Negative equity'],
    lastTradeDate: ['最近交易', '最近交易', 'Last trade'],
    missingEvent: ['缺少事件编号', '缺少事件編號', 'No event chosen'],
    missingEventDescription: ['请从 MOT 待办列表进入事件详情', '請從 MOT 待辦列表進入事件詳情', 'Open an event from the MOT to-do list'],
    backToList: ['返回 MOT 待办', '返回 MOT 待辦', 'Back to MOT to-dos'],
  },
  reason: {
    birthday: [
      '客户将于 {{date}} 过 {{years}} 岁生日（提前 {{lookaheadDays}} 天提醒）',
      '客戶將於 {{date}} 過 {{years}} 歲生日（提前 {{lookaheadDays}} 天提醒）',
      'Birthday ({{years}}) on {{date}} (reminder {{lookaheadDays}} days ahead)',
    ],
    anniversary: [
      '客户开户将于 {{date}} 满 {{years}} 周年（提前 {{lookaheadDays}} 天提醒）',
      '客戶開戶將於 {{date}} 滿 {{years}} 周年（提前 {{lookaheadDays}} 天提醒）',
      '{{years}}-year account anniversary on {{date}} (reminder {{lookaheadDays}} days ahead)',
    ],
    large_deposit: [
      '{{occurredAt}} 入金 {{currency}} {{amount}}，折合 {{ccy}} {{converted}}，不低于大额门槛 {{ccy}} {{threshold}}',
      '{{occurredAt}} 入金 {{currency}} {{amount}}，折合 {{ccy}} {{converted}}，不低於大額門檻 {{ccy}} {{threshold}}',
      'Deposit of {{currency}} {{amount}} on {{occurredAt}} = {{ccy}} {{converted}}, at or above the {{ccy}} {{threshold}} threshold',
    ],
    large_withdrawal: [
      '{{occurredAt}} 出金 {{currency}} {{amount}}，折合 {{ccy}} {{converted}}，不低于大额门槛 {{ccy}} {{threshold}}',
      '{{occurredAt}} 出金 {{currency}} {{amount}}，折合 {{ccy}} {{converted}}，不低於大額門檻 {{ccy}} {{threshold}}',
      'Withdrawal of {{currency}} {{amount}} on {{occurredAt}} = {{ccy}} {{converted}}, at or above the {{ccy}} {{threshold}} threshold',
    ],
    large_deposit_sameCcy: [
      '{{occurredAt}} 入金 {{currency}} {{amount}}，不低于大额门槛 {{ccy}} {{threshold}}',
      '{{occurredAt}} 入金 {{currency}} {{amount}}，不低於大額門檻 {{ccy}} {{threshold}}',
      'Deposit of {{currency}} {{amount}} on {{occurredAt}}, at or above the {{ccy}} {{threshold}} threshold',
    ],
    large_withdrawal_sameCcy: [
      '{{occurredAt}} 出金 {{currency}} {{amount}}，不低于大额门槛 {{ccy}} {{threshold}}',
      '{{occurredAt}} 出金 {{currency}} {{amount}}，不低於大額門檻 {{ccy}} {{threshold}}',
      'Withdrawal of {{currency}} {{amount}} on {{occurredAt}}, at or above the {{ccy}} {{threshold}} threshold',
    ],
    transfer_in: [
      '{{occurredAt}} 转入 {{security}} {{quantity}} 股，市值约 {{ccy}} {{value}}',
      '{{occurredAt}} 轉入 {{security}} {{quantity}} 股，市值約 {{ccy}} {{value}}',
      '{{quantity}} shares of {{security}} transferred in on {{occurredAt}}, worth about {{ccy}} {{value}}',
    ],
    transfer_out: [
      '{{occurredAt}} 转出 {{security}} {{quantity}} 股，市值约 {{ccy}} {{value}}',
      '{{occurredAt}} 轉出 {{security}} {{quantity}} 股，市值約 {{ccy}} {{value}}',
      '{{quantity}} shares of {{security}} transferred out on {{occurredAt}}, worth about {{ccy}} {{value}}',
    ],
    dormant: [
      '已 {{daysWithoutTrade}} 天没有交易（最近交易：{{lastTrade}}），超过休眠标准 {{dormantDays}} 天',
      '已 {{daysWithoutTrade}} 天沒有交易（最近交易：{{lastTrade}}），超過休眠標準 {{dormantDays}} 天',
      'No trade for {{daysWithoutTrade}} days (last trade: {{lastTrade}}), over the {{dormantDays}}-day limit',
    ],
    dormantNever: ['从未交易', '從未交易', 'never'],
    position_loss: [
      '{{security}} 现价 {{lastPrice}} 低于成本 {{avgCost}}，亏损 {{lossPct}}%（约 {{ccy}} {{loss}}），超过 {{minLossPct}}% 且 {{ccy}} {{minLoss}} 的标准',
      '{{security}} 現價 {{lastPrice}} 低於成本 {{avgCost}}，虧損 {{lossPct}}%（約 {{ccy}} {{loss}}），超過 {{minLossPct}}% 且 {{ccy}} {{minLoss}} 的標準',
      '{{security}} at {{lastPrice}}, below cost {{avgCost}}: down {{lossPct}}% (about {{ccy}} {{loss}}), over {{minLossPct}}% and {{ccy}} {{minLoss}}',
    ],
    unfunded: [
      '{{openDate}} 开户，已 {{daysSinceOpen}} 天未入金或转入股票（标准：{{afterDays}} 天）',
      '{{openDate}} 開戶，已 {{daysSinceOpen}} 天未入金或轉入股票（標準：{{afterDays}} 天）',
      'Opened on {{openDate}}, {{daysSinceOpen}} days without a deposit or stock transfer in (limit {{afterDays}} days)',
    ],
    id_expiry: [
      '身份证件将于 {{expiryDate}} 到期（{{when}}）',
      '身份證件將於 {{expiryDate}} 到期（{{when}}）',
      'Identity document expires on {{expiryDate}} ({{when}})',
    ],
    risk_expiry: [
      '风险评估（{{assessedOn}} 完成，有效 {{validYears}} 年）将于 {{expiryDate}} 到期（{{when}}）',
      '風險評估（{{assessedOn}} 完成，有效 {{validYears}} 年）將於 {{expiryDate}} 到期（{{when}}）',
      'Risk assessment of {{assessedOn}} (valid {{validYears}} years) expires on {{expiryDate}} ({{when}})',
    ],
    daysLeft: ['还有 {{count}} 天', '還有 {{count}} 天', { one: 'in {{count}} day', other: 'in {{count}} days' }],
    daysAgo: ['已过期 {{count}} 天', '已過期 {{count}} 天', { one: 'expired {{count}} day ago', other: 'expired {{count}} days ago' }],
    expiresToday: ['今天到期', '今天到期', 'today'],
    follow_up: [
      '联系记录 #{{recordId}} 约定的下一步：{{nextStep}}',
      '聯絡記錄 #{{recordId}} 約定的下一步：{{nextStep}}',
      'Next step agreed in contact record #{{recordId}}: {{nextStep}}',
    ],
    contact_removed: {
      del_follow_user: [
        '{{occurredAt}} 客户在企业微信中删除了您，聊天联系人与客户的绑定已失效；请改用电话等方式联系，或在 KYC 页面解除绑定',
        '{{occurredAt}} 客戶在企業微信中刪除了您，聊天聯絡人與客戶的綁定已失效；請改用電話等方式聯絡，或在 KYC 頁面解除綁定',
        'On {{occurredAt}} the customer removed you in WeCom; their chat contact binding no longer reaches them. Call instead, or unbind on the KYC page',
      ],
      del_external_contact: [
        '{{occurredAt}} 您在企业微信中删除了该客户，聊天联系人与客户的绑定已失效',
        '{{occurredAt}} 您在企業微信中刪除了該客戶，聊天聯絡人與客戶的綁定已失效',
        'On {{occurredAt}} you removed this customer in WeCom; their chat contact binding no longer reaches them',
      ],
      transferred: [
        '{{occurredAt}} 企业微信已将该客户转交其他成员，您与客户的聊天联系人绑定已失效',
        '{{occurredAt}} 企業微信已將該客戶轉交其他成員，您與客戶的聊天聯絡人綁定已失效',
        'On {{occurredAt}} WeCom handed this customer to another member; your chat contact binding no longer reaches them',
      ],
    },
  },
  fact: {
    nextStep: ['下一步', '下一步', 'Next step'],
    recordId: ['联系记录', '聯絡記錄', 'Contact record'],
    amount: ['金额', '金額', 'Amount'],
    currency: ['币种', '幣種', 'Currency'],
    amountHkd: ['折合（{{ccy}}）', '折合（{{ccy}}）', 'In {{ccy}}'],
    thresholdHkd: ['大额门槛（{{ccy}}）', '大額門檻（{{ccy}}）', 'Threshold ({{ccy}})'],
    method: ['方式', '方式', 'Method'],
    occurredAt: ['发生时间', '發生時間', 'When'],
    securityName: ['证券名称', '證券名稱', 'Security'],
    quantity: ['数量', '數量', 'Quantity'],
    counterparty: ['对手方', '對手方', 'Counterparty'],
    lastPrice: ['现价', '現價', 'Last price'],
    valueHkd: ['市值（{{ccy}}）', '市值（{{ccy}}）', 'Value ({{ccy}})'],
    avgCost: ['成本价', '成本價', 'Average cost'],
    lossPct: ['亏损比例', '虧損比例', 'Loss'],
    lossHkd: ['浮亏（{{ccy}}）', '浮虧（{{ccy}}）', 'Paper loss ({{ccy}})'],
    birthday: ['生日', '生日', 'Birthday'],
    date: ['日期', '日期', 'Date'],
    years: ['年数', '年數', 'Years'],
    openDate: ['开户日期', '開戶日期', 'Opened'],
    daysSinceOpen: ['开户天数', '開戶天數', 'Days since opening'],
    lastTradeDate: ['最近交易', '最近交易', 'Last trade'],
    daysWithoutTrade: ['未交易天数', '未交易天數', 'Days without trade'],
    expiryDate: ['到期日', '到期日', 'Expires'],
    daysToExpiry: ['距到期天数', '距到期天數', 'Days to expiry'],
    idDocType: ['证件类型', '證件類型', 'Document type'],
    assessedOn: ['评估日期', '評估日期', 'Assessed on'],
    riskLevel: ['风险等级', '風險等級', 'Risk level'],
    changeType: ['变化', '變化', 'Change'],
  },
  handle: {
    title: ['处理事件', '處理事件', 'Handle event'],
    channel: ['服务方式', '服務方式', 'Channel'],
    note: ['服务内容', '服務內容', 'What was done'],
    notePlaceholder: [
      '记录与客户沟通的内容，如：电话祝贺生日，客户表示感谢',
      '記錄與客戶溝通的內容，如：電話祝賀生日，客戶表示感謝',
      'What you and the client talked about, e.g. called with birthday wishes',
    ],
    noteRequired: ['请填写服务内容', '請填寫服務內容', 'Please describe the service'],
    outcome: ['服务结果', '服務結果', 'Outcome'],
    outcomePlaceholder: ['选填，如：客户有意追加投资', '選填，如：客戶有意追加投資', 'Optional, e.g. will add funds'],
    submit: ['提交', '提交', 'Submit'],
    fullForm: [
      '填写完整记录（目的、下一步、适合性）',
      '填寫完整記錄（目的、下一步、適合性）',
      'Full record (purpose, next step, suitability)',
    ],
    success: ['已处理，已记入服务记录', '已處理，已記入服務記錄', 'Handled and saved to service records'],
    meanwhileTitle: ['此事件已在别处处理', '此事件已在別處處理', 'This event was handled meanwhile'],
    meanwhileBody: [
      '您为它填写的内容还没有保存，保留如下。可以把它记为这位客户的一条联系记录。',
      '您為它填寫的內容還沒有儲存，保留如下。可以把它記為這位客戶的一條聯絡記錄。',
      'What you typed for it is not saved yet, and is kept below. You can save it as a contact record for this client.',
    ],
    meanwhileSave: ['记为联系记录', '記為聯絡記錄', 'Save as a contact record'],
    meanwhileDiscard: ['不保留', '不保留', 'Discard'],
  },
  history: {
    searchPlaceholder: ['搜索客户姓名/服务内容/结果', '搜尋客戶姓名/服務內容/結果', 'Client, note or outcome'],
    filter: ['筛选', '篩選', 'Filter'],
    rule: ['事件类型', '事件類型', 'Event type'],
    channel: ['服务方式', '服務方式', 'Channel'],
    dateRange: ['服务日期', '服務日期', 'Served between'],
    from: ['开始日期', '開始日期', 'From'],
    to: ['结束日期', '結束日期', 'To'],
    reset: ['重置', '重設', 'Reset'],
    apply: ['确定', '確定', 'Apply'],
    total: ['共 {{count}} 条服务记录', '共 {{count}} 條服務記錄', '{{count}} service records'],
    empty: ['没有符合条件的服务记录', '沒有符合條件的服務記錄', 'No service records match'],
    noEvent: ['日常服务', '日常服務', 'Routine service'],
    outcome: ['结果', '結果', 'Outcome'],
    any: ['不限', '不限', 'Any'],
  },
  client: {
    events: ['事件', '事件', 'Events'],
    history: ['服务记录', '服務記錄', 'Service records'],
    noEvents: ['该客户暂无事件', '該客戶暫無事件', 'No events for this client'],
    noHistory: ['该客户暂无服务记录', '該客戶暫無服務記錄', 'No service records for this client'],
    missing: ['缺少客户编号', '缺少客戶編號', 'No client chosen'],
    missingDescription: ['请从事件详情或服务记录进入', '請從事件詳情或服務記錄進入', 'Open a client from an event or a service record'],
  },
  settings: {
    title: ['MOT 设置', 'MOT 設定', 'MOT settings'],
    minCashIO: ['大额出入金门槛（HKD）', '大額出入金門檻（HKD）', 'Large deposit/withdrawal threshold (HKD)'],
    minCashIODesc: [
      '单笔入金/出金折合港币不低于此金额时生成事件，修改后重新评估近 7 天的资金流水',
      '單筆入金/出金折合港幣不低於此金額時生成事件，修改後重新評估近 7 天的資金流水',
      'A deposit or withdrawal worth at least this much in HKD raises an event; changing it re-checks the last 7 days',
    ],
    minCashIOInvalid: ['请输入 1 以上的金额', '請輸入 1 以上的金額', 'Enter an amount of at least 1'],
    save: ['保存', '儲存', 'Save'],
    saved: ['已保存', '已儲存', 'Saved'],
    fold: ['按客户汇总', '按客戶匯總', 'Group by client'],
    foldDesc: [
      '开启后同一客户的多个事件合并为一行',
      '開啟後同一客戶的多個事件合併為一行',
      "One row per client with all of that client's events",
    ],
    currency: ['显示币种', '顯示幣種', 'Display currency'],
    currencyDesc: [
      '事件中的金额、门槛和资产按此币种显示，与客户页面相同',
      '事件中的金額、門檻和資產按此幣種顯示，與客戶頁面相同',
      'Amounts, thresholds and assets in events are shown in this currency, as on the client pages',
    ],
    push: ['企业微信提醒', '企業微信提醒', 'Reminders in WeCom'],
    pushDesc: [
      '有新的 MOT 事件时，通过企业微信推送一张消息卡片（每批一张）',
      '有新的 MOT 事件時，透過企業微信推送一張訊息卡片（每批一張）',
      'One WeCom message card when new MOT events arrive (one per batch)',
    ],
    pushQuiet: [
      '{{from}}–{{until}}（香港时间）不推送，届时的提醒顺延到 {{until}}',
      '{{from}}–{{until}}（香港時間）不推送，期間的提醒順延至 {{until}}',
      'None between {{from}} and {{until}} (Hong Kong time); those wait until {{until}}',
    ],
    pushOff: ['已关闭企业微信提醒', '已關閉企業微信提醒', 'WeCom reminders turned off'],
    pushOn: ['已开启企业微信提醒', '已開啟企業微信提醒', 'WeCom reminders turned on'],
  },
} satisfies Entries;

export const motResources = byLanguage({ mot });

void registerMotRuleNames();
// A service record's channel is a contact's (`contact.channel.<channel>`), named as the contact log names it.
void registerContactLabels();
void registerLocales(motResources);

declare module '../../shared/i18n/translator' {
  interface StringSets {
    mot: InOneLanguage<{ mot: typeof mot }>;
  }
}
