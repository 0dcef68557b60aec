import { agentCodeSchema, corpCodeSchema } from '@broker/contract';
import { useAppSettings, type AppSettings } from './app-settings-store';

/**
 * Takes entry, corpCode, agentCode, agentId and wxAppId from the URL the app was opened with (a
 * WeCom menu link, a sidebar link with `entry=single_chat_tools`, or the /wxEntry return address)
 * into the session settings. Values absent from the URL keep what the session already has.
 */
export function applyEntryParams(search: string): Partial<AppSettings> {
  const query = new URLSearchParams(search);
  const patch: Partial<AppSettings> = {};
  const entry = query.get('entry');
  if (entry === 'normal' || entry === 'single_chat_tools') patch.entry = entry;
  const corpCode = corpCodeSchema.safeParse(query.get('corpCode'));
  if (corpCode.success && corpCode.data !== useAppSettings.getState().corpCode) {
    patch.corpCode = corpCode.data;
    patch.agentId = '';
    patch.wxAppId = '';
  }
  const agentCode = agentCodeSchema.safeParse(query.get('agentCode'));
  if (agentCode.success && agentCode.data !== useAppSettings.getState().agentCode) {
    patch.agentCode = agentCode.data;
    patch.agentId = '';
  }
  const agentId = query.get('agentId');
  if (agentId) patch.agentId = agentId;
  const wxAppId = query.get('wxAppId');
  if (wxAppId) patch.wxAppId = wxAppId;
  if (Object.keys(patch).length > 0) useAppSettings.getState().update(patch);
  return patch;
}
