/**
 * The emulated WeCom directory: one corp with three agents, its staff, and the external
 * contacts (customers on WeChat) they follow. The server seeds its staff table from the
 * same list, so every emulated sign-in maps to a staff record.
 */
import type { AgentPolicy } from './agent-policy';

export interface EmulatorAgent {
  agentId: string;
  secret: string;
  /** What the admin console says for this app; unset fields take the demo defaults (agent-policy.ts). */
  policy?: Partial<AgentPolicy>;
}

/** The corp's callback settings, as its admin enters them in WeCom's console (ADR 0019). */
export interface EmulatorCallback {
  /** Signs every callback (msg_signature). */
  token: string;
  /** Base64 (43 characters, no `=`) of the AES-256 key that encrypts every callback. */
  encodingAesKey: string;
}

export interface EmulatorCorp {
  code: string;
  name: string;
  corpId: string;
  agents: Record<'khzl' | 'khgl' | 'mot', EmulatorAgent>;
  callback?: EmulatorCallback;
}

export interface EmulatorStaff {
  userid: string;
  name: string;
  position: string;
  email: string;
  mobile: string;
  gender: '1' | '2';
}

export interface EmulatorExternalContact {
  externalUserId: string;
  name: string;
  gender: 1 | 2;
  /** Staff userids who have this contact in their WeCom contacts. */
  followedBy: string[];
}

export const DEFAULT_EMULATOR_CORP: EmulatorCorp = {
  code: 'fxhl',
  name: '富兴证券（香港）',
  corpId: 'ww7a1f3c9e5b2d4f60',
  agents: {
    khzl: { agentId: '1000002', secret: 'emu-khzl-secret-5d1c2f8a9b7e4a01' },
    khgl: { agentId: '1000003', secret: 'emu-khgl-secret-8e2b6c4d1f9a7b02' },
    mot: { agentId: '1000004', secret: 'emu-mot-secret-3a9f7e1c5b2d8c03' },
  },
  callback: { token: 'emuCallbackToken7f3a9c1e', encodingAesKey: 'emuCallbackAesKey0123456789abcdefghijklmnop' },
};

export const EMULATOR_STAFF: EmulatorStaff[] = [
  {
    userid: 'chanwaiman',
    name: '陈伟文',
    position: '高级客户经理',
    email: 'waiman.chan@fxhl.example.com',
    mobile: '+852 9123 4501',
    gender: '1',
  },
  {
    userid: 'leekaying',
    name: '李嘉欣',
    position: '客户经理',
    email: 'kaying.lee@fxhl.example.com',
    mobile: '+852 9234 5602',
    gender: '2',
  },
  {
    userid: 'wongchishing',
    name: '黄志诚',
    position: '客户经理',
    email: 'chishing.wong@fxhl.example.com',
    mobile: '+852 6345 6703',
    gender: '1',
  },
  { userid: 'zhangmin', name: '张敏', position: '财富顾问', email: 'min.zhang@fxhl.example.com', mobile: '+86 138 0013 8004', gender: '2' },
];

export const EMULATOR_EXTERNAL_CONTACTS: EmulatorExternalContact[] = [
  { externalUserId: 'wmEmu0001HoKwokLeung', name: '何国良', gender: 1, followedBy: ['chanwaiman'] },
  { externalUserId: 'wmEmu0002TseMeiYee', name: '谢美仪', gender: 2, followedBy: ['chanwaiman', 'leekaying'] },
  { externalUserId: 'wmEmu0003LauChiKeung', name: '刘志强', gender: 1, followedBy: ['leekaying'] },
  { externalUserId: 'wmEmu0004ChowSiuFan', name: '周小凡', gender: 2, followedBy: ['wongchishing'] },
  { externalUserId: 'wmEmu0005WangLei', name: '王磊', gender: 1, followedBy: ['zhangmin', 'chanwaiman'] },
];
