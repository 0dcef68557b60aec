import { registerLocales } from '../../shared/i18n/i18n';
import { byLanguage, type Entries, type InOneLanguage } from '../../shared/i18n/by-language';
import { registerMotRuleNames } from '../../shared/i18n/mot-rule-names';
import { registerContactLabels } from '../../shared/i18n/contact-labels';

/** The contact log's strings, under `contact.`; the channels' and purposes' names, shown by other features too, are in shared/i18n/contact-labels.ts. */
const contact = {
  form: {
    channel: ['联系方式', '聯絡方式', 'Channel'],
    purpose: ['联系目的', '聯絡目的', 'Purpose'],
    when: ['联系时间', '聯絡時間', 'When'],
    day: ['日期', '日期', 'Date'],
    time: ['时间', '時間', 'Time'],
    note: ['沟通内容', '溝通內容', 'What was discussed'],
    notePlaceholder: [
      '记录与客户沟通的要点：客户的问题、您的回答、客户的决定',
      '記錄與客戶溝通的要點：客戶的問題、您的回答、客戶的決定',
      "The points of the conversation: the client's questions, your answers, their decisions",
    ],
    outcome: ['结果', '結果', 'Outcome'],
    outcomePlaceholder: [
      '一句话结果，如：客户同意下周面谈',
      '一句話結果，如：客戶同意下週面談',
      'In one line, e.g. client agreed to meet next week',
    ],
    nextStep: ['下一步', '下一步', 'Next step'],
    nextStepPlaceholder: ['接下来要做什么', '接下來要做甚麼', 'What happens next'],
    nextStepDate: ['跟进日期', '跟進日期', 'Follow-up date'],
    nextStepDateHint: [
      '当天会在 MOT 待办中提醒您跟进',
      '當天會在 MOT 待辦中提醒您跟進',
      'That day it appears on your MOT list as a follow-up',
    ],
    clearDate: ['清除日期', '清除日期', 'Clear date'],
    suitability: ['适合性理据', '適合性理據', 'Suitability rationale'],
    suitabilityHint: [
      '推荐产品或交易时必填：为何适合该客户（风险承受能力、投资目标、经验）',
      '推介產品或交易時必填：為何適合該客戶（風險承受能力、投資目標、經驗）',
      'Required when a product or trade was recommended: why it suits this client (risk tolerance, objectives, experience)',
    ],
    suitabilityPlaceholder: [
      '例如：客户风险等级 R4，投资目标为增长，有三年股票经验……',
      '例如：客戶風險等級 R4，投資目標為增長，有三年股票經驗……',
      'e.g. Risk level R4, growth objective, three years of equity experience…',
    ],
    events: ['关联的待办事件', '關聯的待辦事件', 'Linked to-do events'],
    eventsHint: [
      '勾选的待办事件会一并标记为已处理',
      '勾選的待辦事件會一併標記為已處理',
      'Ticked events are marked handled with this record',
    ],
    eventsNone: ['该客户没有待处理的 MOT 事件', '該客戶沒有待處理的 MOT 事件', 'This client has no pending MOT events'],
    follows: ['跟进 {{date}} 的联系记录', '跟進 {{date}} 的聯絡記錄', 'Follows up the contact of {{date}}'],
    submit: ['保存记录', '儲存記錄', 'Save record'],
    ignored: [
      '链接中以下内容无法使用，已忽略：{{names}}',
      '連結中以下內容無法使用，已略過：{{names}}',
      'Left out of the link, not usable: {{names}}',
    ],
    paramNames: {
      channel: ['联系方式', '聯絡方式', 'channel'],
      eventId: ['事件', '事件', 'event'],
      at: ['联系时间', '聯絡時間', 'time'],
      followsRecordId: ['跟进的记录', '跟進的記錄', 'record followed up'],
    },
    eventNotThisClient: [
      '链接中的事件不属于该客户，未关联',
      '連結中的事件不屬於該客戶，未關聯',
      "The link's event belongs to another client: not linked",
    ],
    eventUnavailable: ['链接中的事件无法读取，未关联', '連結中的事件無法讀取，未關聯', "The link's event could not be read: not linked"],
    eventHandledAlready: [
      '链接中的事件已被处理，未关联；您填写的内容仍会保存为一条联系记录',
      '連結中的事件已被處理，未關聯；您填寫的內容仍會儲存為一條聯絡記錄',
      "The link's event has been handled already: not linked; what you write is still saved as a contact record",
    ],
  },
  error: {
    required: ['请填写此项', '請填寫此項', 'Please fill this in'],
    tooLong: ['最多 {{max}} 字', '最多 {{max}} 字', 'At most {{max}} characters'],
    suitabilityRequired: [
      '推荐产品或交易时，请写明适合性理据',
      '推介產品或交易時，請寫明適合性理據',
      'A recommendation needs the suitability rationale',
    ],
    nextStepRequired: [
      '有跟进日期时，请写明下一步要做什么',
      '有跟進日期時，請寫明下一步要做甚麼',
      'Say what the next step is when it has a date',
    ],
    day: ['请选择有效的日期', '請選擇有效的日期', 'Choose a valid date'],
    time: ['请选择有效的时间', '請選擇有效的時間', 'Choose a valid time'],
    future: ['联系时间不能晚于现在', '聯絡時間不能晚於現在', 'The contact cannot be later than now'],
    beforeOpen: ['联系时间不能早于客户开户日', '聯絡時間不能早於客戶開戶日', "The contact cannot be before the client's account opened"],
    nextStepBeforeContact: [
      '跟进日期不能早于联系当天',
      '跟進日期不能早於聯絡當天',
      'The follow-up cannot be before the day of the contact',
    ],
    reasonRequired: ['请写明更正的原因', '請寫明更正的原因', 'Say why you are correcting the record'],
    tooManyEvents: ['最多关联 {{max}} 个事件', '最多關聯 {{max}} 個事件', 'At most {{max}} events'],
    lockedMeanwhile: [
      '这条记录只能更正（已锁定，或由他人记录）：请写明更正的原因后再保存',
      '這條記錄只能更正（已鎖定，或由他人記錄）：請寫明更正的原因後再儲存',
      'This record can only be corrected now (it has locked, or someone else wrote it): give the reason, then save',
    ],
    eventHandled: [
      '勾选的事件刚被处理过，已从列表中移除；请确认后再保存',
      '勾選的事件剛被處理過，已從列表中移除；請確認後再儲存',
      'A ticked event was handled meanwhile and has left the list; check, then save again',
    ],
  },
  saved: ['已记录', '已記錄', 'Contact logged'],
  edited: ['已保存修改', '已儲存修改', 'Changes saved'],
  corrected: ['已保存更正，原版本保留', '已儲存更正，原版本保留', 'Correction saved; the earlier version is kept'],
  unchanged: ['没有修改任何内容', '沒有修改任何內容', 'Nothing was changed'],
  record: {
    version: ['第 {{version}} 版', '第 {{version}} 版', 'Version {{version}}'],
    latest: ['当前版本', '目前版本', 'Current'],
    lockedAt: ['已于 {{time}} 锁定', '已於 {{time}} 鎖定', 'Locked {{time}}'],
    editableUntil: ['{{time}} 前可直接修改', '{{time}} 前可直接修改', 'Editable until {{time}}'],
    edit: ['修改', '修改', 'Edit'],
    correct: ['更正', '更正', 'Correct'],
    editTitle: ['修改记录', '修改記錄', 'Edit record'],
    correctTitle: ['更正记录', '更正記錄', 'Correct record'],
    correctHint: [
      '记录已锁定：更正会新增一个版本，原版本保留备查。',
      '記錄已鎖定：更正會新增一個版本，原版本保留備查。',
      'The record is locked: a correction adds a new version and keeps the earlier one.',
    ],
    reason: ['更正原因', '更正原因', 'Reason for the correction'],
    reasonPlaceholder: ['例如：联系时间记错，应为下午', '例如：聯絡時間記錯，應為下午', 'e.g. Wrong time noted: it was in the afternoon'],
    reasonLine: ['（修改原因：{{reason}}）', '（修改原因：{{reason}}）', '(Reason for the change: {{reason}})'],
    reasonMoved: [
      '刚保存的新版本尚未锁定，这次修改会直接改动它，不记录更正原因：您写的原因已移到内容末尾，可修改或删除。',
      '剛儲存的新版本尚未鎖定，這次修改會直接改動它，不記錄更正原因：您寫的原因已移到內容末尾，可修改或刪除。',
      'The version just saved is not locked yet, so this change edits it in place, which keeps no reason: the reason you wrote was moved to the end of the note. Change or remove it there.',
    ],
    save: ['保存修改', '儲存修改', 'Save changes'],
    saveCorrection: ['保存更正', '儲存更正', 'Save correction'],
    by: ['记录人 {{name}}', '記錄人 {{name}}', 'By {{name}}'],
    writtenAt: ['记录于 {{time}}', '記錄於 {{time}}', 'Written {{time}}'],
    events: ['关联事件', '關聯事件', 'Linked events'],
    followsRecord: ['跟进的记录', '跟進的記錄', 'Follows up'],
    followUpEvent: ['跟进提醒', '跟進提醒', 'Follow-up reminder'],
    openFollowUp: ['查看跟进事件', '查看跟進事件', 'Open the follow-up'],
    correctionReason: ['更正原因', '更正原因', 'Reason for correction'],
    versions: ['历史版本', '歷史版本', 'Earlier versions'],
    versionsCount: ['共 {{count}} 个历史版本', '共 {{count}} 個歷史版本', 'Earlier versions ({{count}})'],
    noVersions: ['没有更早的版本', '沒有更早的版本', 'No earlier versions'],
    missing: ['缺少记录编号', '缺少記錄編號', 'No record given'],
    missingDescription: ['请从客户的联系日志打开记录', '請從客戶的聯絡日誌打開記錄', "Open a record from the client's contact log"],
    log: ['该客户的联系日志', '該客戶的聯絡日誌', "This client's contact log"],
    followUp: ['记录跟进', '記錄跟進', 'Log the follow-up'],
  },
  log: {
    all: ['全部', '全部', 'All'],
    filter: ['联系方式', '聯絡方式', 'Channel'],
    empty: ['还没有联系记录', '還沒有聯絡記錄', 'No contacts logged yet'],
    emptyDescription: [
      '与客户电话、微信、面谈或邮件联系后，在这里记录',
      '與客戶電話、微信、面談或電郵聯絡後，在這裡記錄',
      'After a call, WeCom chat, meeting or email with the client, log it here',
    ],
    emptyFiltered: ['没有这种方式的联系记录', '沒有這種方式的聯絡記錄', 'No contacts by this channel'],
    add: ['记录联系', '記錄聯絡', 'Log a contact'],
    export: ['导出 CSV', '匯出 CSV', 'Export CSV'],
    exported: [
      '已导出 {{count}} 条记录（含所有版本）',
      '已匯出 {{count}} 條記錄（含所有版本）',
      { one: 'Exported {{count}} record (every version)', other: 'Exported {{count}} records (every version)' },
    ],
    print: ['打印', '列印', 'Print'],
    loading: ['加载中', '載入中', 'Loading'],
    noMore: ['没有更多了', '沒有更多了', 'No more'],
    failed: ['加载失败，点击重试', '載入失敗，點擊重試', 'Could not load. Tap to retry'],
    corrected: ['已更正', '已更正', 'Corrected'],
    locked: ['已锁定', '已鎖定', 'Locked'],
  },
  print: {
    heading: ['客户联系日志', '客戶聯絡日誌', 'Client contact log'],
    client: ['客户', '客戶', 'Client'],
    customerNo: ['客户号', '客戶號', 'Client no.'],
    openDate: ['开户日期', '開戶日期', 'Account opened'],
    printedAt: ['打印时间 {{time}}', '列印時間 {{time}}', 'Printed {{time}}'],
    printedBy: ['打印人 {{name}}', '列印人 {{name}}', 'Printed by {{name}}'],
    records: ['共 {{count}} 条记录', '共 {{count}} 條記錄', { one: '{{count}} record', other: '{{count}} records' }],
    print: ['打印', '列印', 'Print'],
    loading: ['正在载入全部记录…', '正在載入全部記錄…', 'Loading every record…'],
    truncated: [
      '记录较多，仅显示最近 {{count}} 条；完整记录请导出 CSV',
      '記錄較多，只顯示最近 {{count}} 條；完整記錄請匯出 CSV',
      'Only the latest {{count}} records are shown; export the CSV for the whole log',
    ],
    empty: ['没有联系记录', '沒有聯絡記錄', 'No contacts logged'],
    columns: {
      servedAt: ['联系时间', '聯絡時間', 'When'],
      channel: ['方式', '方式', 'Channel'],
      purpose: ['目的', '目的', 'Purpose'],
      content: ['内容', '內容', 'Record'],
      staff: ['记录人', '記錄人', 'By'],
    },
  },
  noCustomer: ['缺少客户', '缺少客戶', 'No client given'],
  noCustomerDescription: ['请从客户资料或 MOT 事件进入', '請從客戶資料或 MOT 事件進入', 'Open this from a client profile or an MOT event'],
  backToList: ['返回客户列表', '返回客戶列表', 'Back to the client list'],
} satisfies Entries;

// Linked events are named as the MOT screens name their rules.
void registerMotRuleNames();
void registerContactLabels();
void registerLocales(byLanguage({ contact }));

declare module '../../shared/i18n/translator' {
  interface StringSets {
    contact: InOneLanguage<{ contact: typeof contact }>;
  }
}
