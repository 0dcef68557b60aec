import { registerLocales } from '../../shared/i18n/i18n';
import { byLanguage, type Entries, type InOneLanguage } from '../../shared/i18n/by-language';

/** The ranked day's and snoozing's strings (ADR 0041), `mot.rank.` and `mot.snooze.`: a block of their own. */
const motRank = {
  rank: {
    progress: ['今日完成', '今日完成', "Today's completion"],
    progressValue: ['{{handled}} / {{total}}', '{{handled}} / {{total}}', '{{handled}} / {{total}}'],
    progressLabel: [
      '今日已处理 {{handled}} 个，共 {{total}} 个',
      '今日已處理 {{handled}} 個，共 {{total}} 個',
      '{{handled}} of {{total}} handled today',
    ],
    title: ['今日优先', '今日優先', 'Today, most important first'],
    subtitle: [
      '逾期、今天到期和今天新生成的事件，按优先分排序',
      '逾期、今日到期及今日新產生的事件，按優先分排序',
      'Overdue, due today and raised today, by priority score',
    ],
    total: ['共 {{count}} 个事件', '共 {{count}} 個事件', { one: '{{count}} event', other: '{{count}} events' }],
    empty: ['今天的事件都处理完了', '今日的事件都處理完了', "All of today's events are handled"],
    emptyDescription: ['新的事件生成后会出现在这里', '新的事件產生後會顯示在這裏', 'New events will appear here when they are raised'],
    overdueDays: ['逾期 {{count}} 天', '逾期 {{count}} 日', '{{count}} d overdue'],
    raisedToday: ['今日新增', '今日新增', 'New today'],
    snoozed: ['已延后', '已延後', 'Snoozed'],
    why: ['为什么排在这里', '為何排在這裏', 'Why this rank'],
    score: ['优先分', '優先分', 'Priority score'],
    formula: [
      '事件类型 × 客户等级 × 逾期 × 距上次联系',
      '事件類型 × 客戶級別 × 逾期 × 距上次聯絡',
      'Event type × client tier × overdue × since last contact',
    ],
    typeWeight: ['事件类型', '事件類型', 'Event type'],
    tier: ['客户等级（按资产）', '客戶級別（按資產）', 'Client tier (by assets)'],
    tierValue: [
      '第 {{tier}} 级（总资产 HKD {{assets}}）',
      '第 {{tier}} 級（總資產 HKD {{assets}}）',
      'Tier {{tier}} (assets HKD {{assets}})',
    ],
    overdue: ['逾期', '逾期', 'Overdue'],
    overdueNone: ['未逾期', '未逾期', 'Not overdue'],
    overdueValue: ['逾期 {{count}} 天', '逾期 {{count}} 日', { one: '{{count}} day', other: '{{count}} days' }],
    contact: ['距上次联系', '距上次聯絡', 'Since last contact'],
    contactNever: ['从未联系', '從未聯絡', 'Never contacted'],
    contactValue: ['{{count}} 天前', '{{count}} 日前', { one: '{{count}} day ago', other: '{{count}} days ago' }],
    factor: ['× {{factor}}', '× {{factor}}', '× {{factor}}'],
    viewLabel: ['今日列表排序', '今日列表排序', "Order of today's list"],
    viewRanked: ['按优先', '按優先', 'By priority'],
    viewDay: ['按客户', '按客戶', 'By client'],
  },
  snooze: {
    open: ['延后', '延後', 'Snooze'],
    title: ['延后事件', '延後事件', 'Snooze event'],
    until: ['延后到', '延後至', 'Snooze until'],
    presets: {
      tomorrow: ['明天', '明日', 'Tomorrow'],
      in3Days: ['3 天后', '3 日後', 'In 3 days'],
      nextWeek: ['下周', '下星期', 'Next week'],
    },
    pickDate: ['选择日期', '選擇日期', 'Pick a date'],
    untilHint: ['可选明天起 {{max}} 天内的日期', '可選明日起 {{max}} 日內的日期', 'Any day from tomorrow to {{max}} days ahead'],
    untilInvalid: [
      '请选择明天到 {{max}} 天内的日期',
      '請選擇明日至 {{max}} 日內的日期',
      'Choose a day from tomorrow to {{max}} days ahead',
    ],
    reason: ['原因', '原因', 'Reason'],
    reasons: {
      client_unavailable: ['客户暂时联系不上', '客戶暫時聯絡不上', 'Client not reachable now'],
      client_asked: ['客户要求改期', '客戶要求改期', 'Client asked for later'],
      awaiting_documents: ['等待客户文件', '等待客戶文件', 'Waiting for documents'],
      awaiting_market: ['等待市场时机', '等待市場時機', 'Waiting for the market'],
      other: ['其他', '其他', 'Other'],
    },
    note: ['说明', '說明', 'Note'],
    notePlaceholder: ['补充说明（选“其他”时必填）', '補充說明（選「其他」時必填）', 'More detail (required for "Other")'],
    noteRequired: ['选“其他”时请写明原因', '選「其他」時請寫明原因', 'Say why when the reason is "Other"'],
    submit: ['确认延后', '確認延後', 'Snooze'],
    success: ['已延后到 {{day}}', '已延後至 {{day}}', 'Snoozed until {{day}}'],
    history: ['延后记录', '延後記錄', 'Snoozes'],
    historyLine: ['{{from}} → {{to}}', '{{from}} → {{to}}', '{{from}} → {{to}}'],
    by: ['{{name}} 于 {{at}}', '{{name}} 於 {{at}}', '{{name}} at {{at}}'],
  },
} satisfies Entries;

void registerLocales(byLanguage({ mot: motRank }));

declare module '../../shared/i18n/translator' {
  interface StringSets {
    motRank: InOneLanguage<{ mot: typeof motRank }>;
  }
}
