import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { AgentCode, Currency } from '@broker/contract';
import { DEFAULT_AGENT_CODE, DEFAULT_CORP_CODE, DEFAULT_CURRENCY } from '../api/contract';
import { StorageKey } from './storage-keys';

/** How WeCom opened the app, as `ww.getContext()` names it; docs/spec.md §1 names `normal` and `single_chat_tools`. */
export const ENTRIES = [
  'normal',
  'single_chat_tools',
  'contact_profile',
  'group_chat_tools',
  'chat_attachment',
  'single_kf_tools',
  'chain_single_chat_tools',
  'chain_group_chat_tools',
  'internal_group_chat_board',
] as const;
export type Entry = (typeof ENTRIES)[number];

/** Entries where WeCom names the customer on the other side (getCurExternalContact works): the app opens on them. */
export const CONTACT_ENTRIES: readonly Entry[] = ['single_chat_tools', 'contact_profile'];
export const isContactEntry = (entry: Entry) => CONTACT_ENTRIES.includes(entry);
export type CurrencyConfig = Partial<Record<Currency, number>> & { HKD: number };

export interface AppSettings {
  entry: Entry;
  corpCode: string;
  agentCode: AgentCode;
  agentId: string;
  wxAppId: string;
  currency: Currency;
  currencyConfig: CurrencyConfig;
  motFold: boolean;
}

export const defaultAppSettings = (): AppSettings => ({
  entry: 'normal',
  corpCode: DEFAULT_CORP_CODE,
  agentCode: DEFAULT_AGENT_CODE,
  agentId: '',
  wxAppId: '',
  currency: DEFAULT_CURRENCY,
  currencyConfig: { HKD: 1 },
  motFold: false,
});

interface AppSettingsActions {
  update(patch: Partial<AppSettings>): void;
  reset(): void;
}

/** Client state for one browser session (docs/spec.md §3 "kept for the browser session"). */
export const useAppSettings = create<AppSettings & AppSettingsActions>()(
  persist(
    (set) => ({
      ...defaultAppSettings(),
      update: (patch) => set(patch),
      reset: () => set(defaultAppSettings()),
    }),
    {
      name: StorageKey.appSettings,
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ update: _update, reset: _reset, ...settings }) => settings,
    },
  ),
);

export const getAppSettings = (): AppSettings => useAppSettings.getState();
