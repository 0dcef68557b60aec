export const zhCN = {
  app: { name: '经纪助手' },
  title: {
    clientManage: '客户管理',
    clientInformation: '客户资料',
    clientHoldingStock: '持仓明细',
    clientTransaction: '交易数据',
    clientMoneyRecord: '出入金记录',
    clientTransferStock: '转仓记录',
    kycIndex: 'KYC',
    motHome: 'MOT',
    motEventDetail: '事件详情',
    motSingleClient: '当前客户',
    motHistorySearch: '服务记录',
    notFound: '页面不存在',
    auditTrail: '我的操作记录',
    contactNew: '记录联系',
    contactRecord: '联系记录',
    contactLog: '联系日志',
    contactPrint: '联系日志（打印）',
  },
  nav: { back: '返回', language: '切换语言', cancel: '取消', auditTrail: '我的操作记录' },
  language: { 'zh-CN': '简体中文', 'zh-HK': '繁體中文', en: 'English' },
  state: {
    loading: '加载中…',
    errorTitle: '加载失败',
    errorDescription: '请检查网络后重试',
    retry: '重试',
    emptyTitle: '暂无内容',
    notFound: {
      client: '客户不存在或已被移除',
      event: '该事件不存在或已被移除',
      record: '该记录不存在或已被删除',
      content: '要查看的内容不存在或已被移除',
      hint: '链接可能已失效，可返回列表查看',
    },
    forbidden: {
      client: '无权查看该客户',
      event: '无权查看该事件',
      record: '无权查看该记录',
      content: '无权查看该内容',
      hint: '只能查看由你负责的客户及其记录',
    },
  },
  search: { label: '搜索框', clear: '清除' },
  notFound: { description: '您访问的页面不存在或已下线', home: '返回客户管理' },
  signIn: {
    signingIn: '正在登录…',
    redirecting: '正在前往企业微信授权…',
    failed: '登录失败',
    failedDescription: '企业微信授权未完成，请重新登录',
    missingCode: '未收到企业微信授权码',
    retry: '重新登录',
    foreignTitle: '登录链接无效',
    foreignStillSignedIn: '这个登录链接不是在本设备上发起的，已忽略。你仍以{{name}}的身份登录。',
    missingStillSignedIn: '链接里没有可用的企业微信授权码，已忽略。你仍以{{name}}的身份登录。',
    foreignSignedOut: '这个登录链接不是在本设备上发起的，已忽略。请在本设备上重新登录。',
    continue: '继续使用',
    you: '当前账号',
    signedOutTitle: '你已退出登录',
    signedOutDescription: '本设备上的登录已结束，客户资料不再显示。需要时可重新登录。',
  },
  format: { today: '今天', tomorrow: '明天', yesterday: '昨天' },
  outcome: { contacted: '已联系客户', no_need: '客户暂无需求', meeting_booked: '已约面谈', unreachable: '未能联系上' },
  me: { open: '我的' },
  errors: {
    network: '网络异常，请稍后重试',
    badResponse: '服务返回的数据无法识别',
    unknown: '请求失败，请稍后重试',
  },
  drafts: {
    restored: '已恢复您上次未提交的内容',
    interrupted: '登录已过期，您填写的内容已保留，请检查后重新提交',
    discard: '清除',
    unreachableTitle: '您在这里填写的内容还没有保存',
    unreachableBody: '它所属的记录现在打不开，内容保留如下，可复制后另行记录。',
  },
};

export type Messages = typeof zhCN;

declare module '../translator' {
  interface StringSets {
    core: Messages;
  }
}
