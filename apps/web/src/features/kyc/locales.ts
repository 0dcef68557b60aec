import { registerLocales } from '../../shared/i18n/i18n';

const zhCN = {
  contact: {
    heading: '当前聊天联系人',
    unknownName: '未知联系人',
    notYours: '该联系人不是您在企业微信中的客户联系人，无法绑定',
    bound: '已绑定',
    unbound: '未绑定',
    boundElsewhere: '已绑定其他客户经理的客户',
    stale: '企微联系已断开',
  },
  bound: {
    heading: '已绑定客户',
    boundAt: '绑定时间',
    customerNo: '客户号',
    phone: '手机',
    viewProfile: '查看客户资料',
    unbind: '解除绑定',
  },
  elsewhere: {
    title: '无法在此绑定',
    description: '该联系人已绑定其他客户经理名下的客户，如需调整请联系该客户经理',
  },
  search: {
    heading: '绑定客户',
    hint: '为该联系人选择您名下的客户',
    placeholder: '姓名 / 手机号 / 账户号码 / 证件号后四位',
    prompt: '输入关键词搜索您名下的客户',
    empty: '没有找到匹配的客户',
    total: '共 {{count}} 位客户',
    more: '仅显示前 {{count}} 位，请输入更精确的关键词',
  },
  candidate: {
    phone: '手机',
    idDoc: '证件',
    accounts: '账户',
    noPhone: '未登记',
    alreadyBound: '已绑定',
    bind: '绑定',
  },
  status: { active: '正常', dormant: '休眠', closed: '已销户' },
  confirmBind: {
    title: '确认绑定',
    content: '将聊天联系人「{{contact}}」绑定到客户「{{customer}}」（{{customerNo}}）？',
    confirm: '确认绑定',
  },
  confirmUnbind: {
    title: '解除绑定',
    content: '解除聊天联系人「{{contact}}」与客户「{{customer}}」的绑定？',
    confirm: '解除绑定',
  },
  cancel: '取消',
  bindDone: '绑定成功',
  unbindDone: '已解除绑定',
  stale: {
    del_follow_user: '客户已于 {{at}} 在企业微信中删除了您，此绑定已失效。客户重新添加您后会自动恢复；如不再需要可解除绑定',
    del_external_contact: '您已于 {{at}} 在企业微信中删除了该客户，此绑定已失效。重新添加客户后会自动恢复；如不再需要可解除绑定',
  },
  notInChat: {
    title: '请从企业微信聊天中打开',
    description: 'KYC 绑定需要在与客户单聊的工具栏或客户详情页中打开本应用',
  },
  entryNotice: {
    groupTitle: '群聊中暂不支持客户识别',
    groupBody: '经纪助手要在与客户的单聊工具栏或客户详情页中打开，才能找到对应的客户。您可以继续使用客户管理和 MOT。',
    otherTitle: '此入口暂不支持客户识别',
    otherBody: '经纪助手要在与客户的单聊工具栏或客户详情页中打开，才能找到对应的客户。您可以继续使用客户管理和 MOT。',
    ok: '知道了',
  },
  wecomFailed: {
    title: '无法连接企业微信',
    register: '企业微信拒绝了页面签名，请关闭侧边栏后重新打开',
    bridge: '未能加载企业微信接口',
    context: '无法获取打开方式',
    contact: '无法获取当前聊天联系人',
    ok: '知道了',
  },
  errors: {
    '091001': '该聊天联系人已绑定客户，请先解除绑定',
    '091002': '该客户已绑定其他聊天联系人，请先解除原有绑定',
    '091003': '该联系人不是您在企业微信中的客户联系人，无法绑定',
    '091004': '企业微信中查无此联系人',
    '091005': '该联系人尚未绑定客户',
    '090403': '该客户不属于您名下，无法操作',
  },
};

type KycMessages = typeof zhCN;

const zhHK: KycMessages = {
  contact: {
    heading: '當前聊天聯絡人',
    unknownName: '未知聯絡人',
    notYours: '該聯絡人不是您在企業微信中的客戶聯絡人，無法綁定',
    bound: '已綁定',
    unbound: '未綁定',
    boundElsewhere: '已綁定其他客戶經理的客戶',
    stale: '企微聯繫已中斷',
  },
  bound: {
    heading: '已綁定客戶',
    boundAt: '綁定時間',
    customerNo: '客戶號',
    phone: '手機',
    viewProfile: '查看客戶資料',
    unbind: '解除綁定',
  },
  elsewhere: {
    title: '無法在此綁定',
    description: '該聯絡人已綁定其他客戶經理名下的客戶，如需調整請聯絡該客戶經理',
  },
  search: {
    heading: '綁定客戶',
    hint: '為該聯絡人選擇您名下的客戶',
    placeholder: '姓名 / 電話 / 賬戶號碼 / 證件號後四位',
    prompt: '輸入關鍵字搜尋您名下的客戶',
    empty: '沒有找到相符的客戶',
    total: '共 {{count}} 位客戶',
    more: '僅顯示前 {{count}} 位，請輸入更精確的關鍵字',
  },
  candidate: {
    phone: '電話',
    idDoc: '證件',
    accounts: '賬戶',
    noPhone: '未登記',
    alreadyBound: '已綁定',
    bind: '綁定',
  },
  status: { active: '正常', dormant: '休眠', closed: '已銷戶' },
  confirmBind: {
    title: '確認綁定',
    content: '將聊天聯絡人「{{contact}}」綁定到客戶「{{customer}}」（{{customerNo}}）？',
    confirm: '確認綁定',
  },
  confirmUnbind: {
    title: '解除綁定',
    content: '解除聊天聯絡人「{{contact}}」與客戶「{{customer}}」的綁定？',
    confirm: '解除綁定',
  },
  cancel: '取消',
  bindDone: '綁定成功',
  unbindDone: '已解除綁定',
  stale: {
    del_follow_user: '客戶已於 {{at}} 在企業微信中刪除了您，此綁定已失效。客戶重新加您後會自動恢復；如不再需要可解除綁定',
    del_external_contact: '您已於 {{at}} 在企業微信中刪除了該客戶，此綁定已失效。重新加回客戶後會自動恢復；如不再需要可解除綁定',
  },
  notInChat: {
    title: '請從企業微信聊天中開啟',
    description: 'KYC 綁定需要在與客戶單聊的工具欄或客戶詳情頁中開啟本應用',
  },
  entryNotice: {
    groupTitle: '群聊中暫不支援客戶識別',
    groupBody: '經紀助手要在與客戶的單聊工具欄或客戶詳情頁中開啟，才能找到對應的客戶。您可以繼續使用客戶管理和 MOT。',
    otherTitle: '此入口暫不支援客戶識別',
    otherBody: '經紀助手要在與客戶的單聊工具欄或客戶詳情頁中開啟，才能找到對應的客戶。您可以繼續使用客戶管理和 MOT。',
    ok: '知道了',
  },
  wecomFailed: {
    title: '無法連接企業微信',
    register: '企業微信拒絕了頁面簽名，請關閉側邊欄後重新開啟',
    bridge: '未能載入企業微信介面',
    context: '無法取得開啟方式',
    contact: '無法取得當前聊天聯絡人',
    ok: '知道了',
  },
  errors: {
    '091001': '該聊天聯絡人已綁定客戶，請先解除綁定',
    '091002': '該客戶已綁定其他聊天聯絡人，請先解除原有綁定',
    '091003': '該聯絡人不是您在企業微信中的客戶聯絡人，無法綁定',
    '091004': '企業微信中查無此聯絡人',
    '091005': '該聯絡人尚未綁定客戶',
    '090403': '該客戶不屬於您名下，無法操作',
  },
};

const en: KycMessages = {
  contact: {
    heading: 'Current chat contact',
    unknownName: 'Unknown contact',
    notYours: 'This person is not one of your WeCom customer contacts, so they cannot be bound',
    bound: 'Bound',
    unbound: 'Not bound',
    boundElsewhere: "Bound to another manager's customer",
    stale: 'WeCom contact lost',
  },
  bound: {
    heading: 'Bound customer',
    boundAt: 'Bound on',
    customerNo: 'Customer no.',
    phone: 'Phone',
    viewProfile: 'View profile',
    unbind: 'Unbind',
  },
  elsewhere: {
    title: 'Cannot bind here',
    description: 'This contact is bound to a customer of another client manager; ask them if it needs to change',
  },
  search: {
    heading: 'Bind a customer',
    hint: 'Choose one of your customers for this contact',
    placeholder: 'Name / phone / account no. / last 4 of ID',
    prompt: 'Type to search your customers',
    empty: 'No matching customers',
    total: 'Customers found: {{count}}',
    more: 'Showing the first {{count}}; try a more precise keyword',
  },
  candidate: {
    phone: 'Phone',
    idDoc: 'ID',
    accounts: 'Accounts',
    noPhone: 'None',
    alreadyBound: 'Already bound',
    bind: 'Bind',
  },
  status: { active: 'Active', dormant: 'Dormant', closed: 'Closed' },
  confirmBind: {
    title: 'Bind contact',
    content: 'Bind the chat contact "{{contact}}" to the customer "{{customer}}" ({{customerNo}})?',
    confirm: 'Bind',
  },
  confirmUnbind: {
    title: 'Unbind',
    content: 'Remove the binding between the chat contact "{{contact}}" and the customer "{{customer}}"?',
    confirm: 'Unbind',
  },
  cancel: 'Cancel',
  bindDone: 'Bound',
  unbindDone: 'Unbound',
  stale: {
    del_follow_user:
      'The customer removed you in WeCom on {{at}}, so this binding no longer reaches them. It recovers when they add you again; unbind it if it is no longer needed',
    del_external_contact:
      'You removed this customer in WeCom on {{at}}, so this binding no longer reaches them. It recovers when you add them again; unbind it if it is no longer needed',
  },
  notInChat: {
    title: 'Open this from a WeCom chat',
    description: "KYC binding works from the toolbar of a one-to-one chat with the customer, or from the customer's contact card",
  },
  entryNotice: {
    groupTitle: 'Customers are not recognised in group chats',
    groupBody:
      "Open Broker Assistant from the toolbar of a one-to-one chat with the customer, or from the customer's contact card, to find the customer. Client management and MOT work as usual.",
    otherTitle: 'Customers are not recognised from here',
    otherBody:
      "Open Broker Assistant from the toolbar of a one-to-one chat with the customer, or from the customer's contact card, to find the customer. Client management and MOT work as usual.",
    ok: 'OK',
  },
  wecomFailed: {
    title: 'Cannot connect to WeCom',
    register: 'WeCom refused the page signature. Close the sidebar and open it again.',
    bridge: 'Could not load the WeCom interface',
    context: 'Could not tell how WeCom opened the page',
    contact: 'Could not get the current chat contact',
    ok: 'OK',
  },
  errors: {
    '091001': 'This chat contact is already bound to a customer; unbind it first',
    '091002': 'This customer is already bound to another chat contact; unbind that first',
    '091003': 'This person is not one of your WeCom customer contacts, so they cannot be bound',
    '091004': 'WeCom does not know this contact',
    '091005': 'This contact is not bound to a customer',
    '090403': 'This customer is not assigned to you',
  },
};

export const kycLocales = { 'zh-CN': zhCN, 'zh-HK': zhHK, en } as const;

void registerLocales({ 'zh-CN': { kyc: zhCN }, 'zh-HK': { kyc: zhHK }, en: { kyc: en } });

declare module '../../shared/i18n/translator' {
  interface StringSets {
    kyc: { kyc: typeof zhCN };
  }
}
