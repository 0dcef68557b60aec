import { registerLocales } from '../../shared/i18n/i18n';
import { byLanguage, type Entries, type InOneLanguage } from '../../shared/i18n/by-language';

const kyc = {
  contact: {
    heading: ['当前聊天联系人', '當前聊天聯絡人', 'Current chat contact'],
    unknownName: ['未知联系人', '未知聯絡人', 'Unknown contact'],
    notYours: [
      '该联系人不是您在企业微信中的客户联系人，无法绑定',
      '該聯絡人不是您在企業微信中的客戶聯絡人，無法綁定',
      'This person is not one of your WeCom customer contacts, so they cannot be bound',
    ],
    bound: ['已绑定', '已綁定', 'Bound'],
    unbound: ['未绑定', '未綁定', 'Not bound'],
    boundElsewhere: ['已绑定其他客户经理的客户', '已綁定其他客戶經理的客戶', "Bound to another manager's customer"],
    stale: ['企微联系已断开', '企微聯繫已中斷', 'WeCom contact lost'],
  },
  bound: {
    heading: ['已绑定客户', '已綁定客戶', 'Bound customer'],
    boundAt: ['绑定时间', '綁定時間', 'Bound on'],
    customerNo: ['客户号', '客戶號', 'Customer no.'],
    phone: ['手机', '手機', 'Phone'],
    viewProfile: ['查看客户资料', '查看客戶資料', 'View profile'],
    unbind: ['解除绑定', '解除綁定', 'Unbind'],
  },
  elsewhere: {
    title: ['无法在此绑定', '無法在此綁定', 'Cannot bind here'],
    description: [
      '该联系人已绑定其他客户经理名下的客户，如需调整请联系该客户经理',
      '該聯絡人已綁定其他客戶經理名下的客戶，如需調整請聯絡該客戶經理',
      'This contact is bound to a customer of another client manager; ask them if it needs to change',
    ],
  },
  search: {
    heading: ['绑定客户', '綁定客戶', 'Bind a customer'],
    hint: ['为该联系人选择您名下的客户', '為該聯絡人選擇您名下的客戶', 'Choose one of your customers for this contact'],
    placeholder: [
      '姓名 / 手机号 / 账户号码 / 证件号后四位',
      '姓名 / 電話 / 賬戶號碼 / 證件號後四位',
      'Name / phone / account no. / last 4 of ID',
    ],
    prompt: ['输入关键词搜索您名下的客户', '輸入關鍵字搜尋您名下的客戶', 'Type to search your customers'],
    empty: ['没有找到匹配的客户', '沒有找到相符的客戶', 'No matching customers'],
    total: ['共 {{count}} 位客户', '共 {{count}} 位客戶', 'Customers found: {{count}}'],
    more: [
      '仅显示前 {{count}} 位，请输入更精确的关键词',
      '僅顯示前 {{count}} 位，請輸入更精確的關鍵字',
      'Showing the first {{count}}; try a more precise keyword',
    ],
  },
  candidate: {
    phone: ['手机', '電話', 'Phone'],
    idDoc: ['证件', '證件', 'ID'],
    accounts: ['账户', '賬戶', 'Accounts'],
    noPhone: ['未登记', '未登記', 'None'],
    alreadyBound: ['已绑定', '已綁定', 'Already bound'],
    bind: ['绑定', '綁定', 'Bind'],
  },
  status: { active: ['正常', '正常', 'Active'], dormant: ['休眠', '休眠', 'Dormant'], closed: ['已销户', '已銷戶', 'Closed'] },
  confirmBind: {
    title: ['确认绑定', '確認綁定', 'Bind contact'],
    content: [
      '将聊天联系人「{{contact}}」绑定到客户「{{customer}}」（{{customerNo}}）？',
      '將聊天聯絡人「{{contact}}」綁定到客戶「{{customer}}」（{{customerNo}}）？',
      'Bind the chat contact "{{contact}}" to the customer "{{customer}}" ({{customerNo}})?',
    ],
    confirm: ['确认绑定', '確認綁定', 'Bind'],
  },
  confirmUnbind: {
    title: ['解除绑定', '解除綁定', 'Unbind'],
    content: [
      '解除聊天联系人「{{contact}}」与客户「{{customer}}」的绑定？',
      '解除聊天聯絡人「{{contact}}」與客戶「{{customer}}」的綁定？',
      'Remove the binding between the chat contact "{{contact}}" and the customer "{{customer}}"?',
    ],
    confirm: ['解除绑定', '解除綁定', 'Unbind'],
  },
  bindDone: ['绑定成功', '綁定成功', 'Bound'],
  unbindDone: ['已解除绑定', '已解除綁定', 'Unbound'],
  stale: {
    del_follow_user: [
      '客户已于 {{at}} 在企业微信中删除了您，此绑定已失效。客户重新添加您后会自动恢复；如不再需要可解除绑定',
      '客戶已於 {{at}} 在企業微信中刪除了您，此綁定已失效。客戶重新加您後會自動恢復；如不再需要可解除綁定',
      'The customer removed you in WeCom on {{at}}, so this binding no longer reaches them. It recovers when they add you again; unbind it if it is no longer needed',
    ],
    del_external_contact: [
      '您已于 {{at}} 在企业微信中删除了该客户，此绑定已失效。重新添加客户后会自动恢复；如不再需要可解除绑定',
      '您已於 {{at}} 在企業微信中刪除了該客戶，此綁定已失效。重新加回客戶後會自動恢復；如不再需要可解除綁定',
      'You removed this customer in WeCom on {{at}}, so this binding no longer reaches them. It recovers when you add them again; unbind it if it is no longer needed',
    ],
  },
  notInChat: {
    title: ['请从企业微信聊天中打开', '請從企業微信聊天中開啟', 'Open this from a WeCom chat'],
    description: [
      'KYC 绑定需要在与客户单聊的工具栏或客户详情页中打开本应用',
      'KYC 綁定需要在與客戶單聊的工具欄或客戶詳情頁中開啟本應用',
      "KYC binding works from the toolbar of a one-to-one chat with the customer, or from the customer's contact card",
    ],
  },
  entryNotice: {
    groupTitle: ['群聊中暂不支持客户识别', '群聊中暫不支援客戶識別', 'Customers are not recognised in group chats'],
    otherTitle: ['此入口暂不支持客户识别', '此入口暫不支援客戶識別', 'Customers are not recognised from here'],
    body: [
      '经纪助手要在与客户的单聊工具栏或客户详情页中打开，才能找到对应的客户。您可以继续使用客户管理和 MOT。',
      '經紀助手要在與客戶的單聊工具欄或客戶詳情頁中開啟，才能找到對應的客戶。您可以繼續使用客戶管理和 MOT。',
      "Open Broker Assistant from the toolbar of a one-to-one chat with the customer, or from the customer's contact card, to find the customer. Client management and MOT work as usual.",
    ],
  },
  wecomFailed: {
    title: ['无法连接企业微信', '無法連接企業微信', 'Cannot connect to WeCom'],
    register: [
      '企业微信拒绝了页面签名，请关闭侧边栏后重新打开',
      '企業微信拒絕了頁面簽名，請關閉側邊欄後重新開啟',
      'WeCom refused the page signature. Close the sidebar and open it again.',
    ],
    bridge: ['未能加载企业微信接口', '未能載入企業微信介面', 'Could not load the WeCom interface'],
    context: ['无法获取打开方式', '無法取得開啟方式', 'Could not tell how WeCom opened the page'],
    contact: ['无法获取当前聊天联系人', '無法取得當前聊天聯絡人', 'Could not get the current chat contact'],
    ok: ['知道了', '知道了', 'OK'],
  },
  errors: {
    '091001': [
      '该聊天联系人已绑定客户，请先解除绑定',
      '該聊天聯絡人已綁定客戶，請先解除綁定',
      'This chat contact is already bound to a customer; unbind it first',
    ],
    '091002': [
      '该客户已绑定其他聊天联系人，请先解除原有绑定',
      '該客戶已綁定其他聊天聯絡人，請先解除原有綁定',
      'This customer is already bound to another chat contact; unbind that first',
    ],
    '091003': [
      '该联系人不是您在企业微信中的客户联系人，无法绑定',
      '該聯絡人不是您在企業微信中的客戶聯絡人，無法綁定',
      'This person is not one of your WeCom customer contacts, so they cannot be bound',
    ],
    '091004': ['企业微信中查无此联系人', '企業微信中查無此聯絡人', 'WeCom does not know this contact'],
    '091005': ['该联系人尚未绑定客户', '該聯絡人尚未綁定客戶', 'This contact is not bound to a customer'],
    '090403': ['该客户不属于您名下，无法操作', '該客戶不屬於您名下，無法操作', 'This customer is not assigned to you'],
  },
} satisfies Entries;

export const kycLocales = byLanguage({ kyc });

void registerLocales(kycLocales);

declare module '../../shared/i18n/translator' {
  interface StringSets {
    kyc: InOneLanguage<{ kyc: typeof kyc }>;
  }
}
