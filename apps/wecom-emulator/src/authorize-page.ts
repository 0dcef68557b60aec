import type { EmulatorStaff } from './directory';

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);

/** The emulator's pages live under the app's Content-Security-Policy: no inline script or style (ADR 0016). */
export const EMULATOR_STYLESHEET = `body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f2f3f5;color:#1f2329}
header{background:#fff;padding:28px 20px 20px;text-align:center;border-bottom:1px solid #e5e6eb}
header .logo{width:52px;height:52px;border-radius:12px;background:#0082ef;color:#fff;font-size:26px;line-height:52px;margin:0 auto 12px}
header h1{font-size:18px;margin:0 0 6px}header p{font-size:13px;color:#86909c;margin:0}
ul{list-style:none;margin:16px 12px;padding:0;background:#fff;border-radius:10px;overflow:hidden}
li+li{border-top:1px solid #f0f1f2}
a.staff{display:flex;align-items:center;gap:12px;padding:14px 16px;color:inherit;text-decoration:none}
.avatar{width:40px;height:40px;border-radius:50%;background:#e8f3ff;color:#0082ef;display:flex;align-items:center;justify-content:center;font-weight:600}
.who{flex:1;display:flex;flex-direction:column}.who small{color:#86909c;margin-top:2px}
.go{color:#c9cdd4;font-size:22px}
footer{font-size:12px;color:#86909c;text-align:center;padding:8px 20px 24px}
body.failed{font-family:sans-serif;padding:32px;text-align:center}
body.failed h1{font-size:18px}
.inbox{margin:12px;display:flex;flex-direction:column;gap:12px}
.card{background:#fff;border-radius:10px;padding:16px;box-shadow:0 1px 2px rgba(0,0,0,.06)}
.card h2{font-size:17px;margin:0 0 10px;line-height:1.4;word-break:break-word}
.card .card-gray{color:#86909c;font-size:13px;margin-bottom:6px}.card .card-normal{font-size:15px;line-height:1.6}
.card .card-highlight{color:#0082ef;font-size:14px;margin-top:6px}
.card .meta{font-size:12px;color:#86909c;margin-top:10px}
.card a.more{display:block;border-top:1px solid #f0f1f2;margin:12px -16px -16px;padding:12px 16px;color:#1f2329;text-decoration:none;font-size:14px}
.card a.more::after{content:"›";float:right;color:#c9cdd4}
.empty{text-align:center;color:#86909c;padding:40px 20px}
`;

/** A page of the emulated WeCom client; `body` is HTML already escaped. */
export const renderPage = (title: string, stylesheetUrl: string, body: string, bodyClass = '') =>
  `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(stylesheetUrl)}">
</head><body${bodyClass ? ` class="${bodyClass}"` : ''}>${body}</body></html>`;

export const pageHeader = (title: string, subtitle: string) =>
  `<header><div class="logo">企</div><h1>${escapeHtml(title)}</h1><p>${escapeHtml(subtitle)}</p></header>`;

/** The members as a list to pick from, each a link. */
export const staffList = (staff: readonly EmulatorStaff[], href: (userid: string) => string, detail: (member: EmulatorStaff) => string) =>
  `<ul>${staff
    .map(
      (member) =>
        `<li><a class="staff" data-userid="${escapeHtml(member.userid)}" href="${escapeHtml(href(member.userid))}"><span class="avatar">${escapeHtml(member.name.slice(0, 1))}</span><span class="who"><b>${escapeHtml(member.name)}</b><small>${escapeHtml(detail(member))}</small></span><span class="go">›</span></a></li>`,
    )
    .join('')}</ul>`;

/** The emulated WeCom authorise page: pick the staff member to sign in as. */
export function renderAuthorizePage(input: {
  corpName: string;
  staff: EmulatorStaff[];
  confirmUrl: (userid: string) => string;
  stylesheetUrl: string;
}) {
  return renderPage(
    '企业微信授权（模拟）',
    input.stylesheetUrl,
    pageHeader(input.corpName, '模拟企业微信 · 选择要登录的员工 / Choose the staff member to sign in as') +
      staffList(input.staff, input.confirmUrl, (member) => `${member.position} · ${member.userid}`) +
      '<footer>WeCom emulator — for local development and tests only</footer>',
  );
}

export const renderErrorPage = (errcode: number, errmsg: string, stylesheetUrl: string) =>
  renderPage(
    '授权失败',
    stylesheetUrl,
    `<h1>授权失败 / Authorisation failed</h1><p>errcode ${errcode}: ${escapeHtml(errmsg)}</p>`,
    'failed',
  );
