import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { AgentCode, Currency } from '@broker/contract';
import { DEFAULT_AGENT_CODE, DEFAULT_CORP_CODE, DEFAULT_CURRENCY } from '../api/contract';
import { StorageKey } from './storage-keys';

export type Entry = 'normal' | 'single_chat_tools';
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

/** Client state for one browser session (SPEC.md §3 "kept for the browser session"). */
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
