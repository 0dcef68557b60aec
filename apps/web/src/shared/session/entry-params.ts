import type { AgentCode } from '@broker/contract';
import { agentCodeValues, corpCodePattern } from '../api/contract';
import { useAppSettings, type AppSettings } from './app-settings-store';

const isAgentCode = (value: string | null): value is AgentCode => agentCodeValues.includes(value as AgentCode);

/** Takes entry, corpCode, agentCode, agentId and wxAppId from the opening URL into the session settings; absent ones keep theirs. */
export function applyEntryParams(search: string): Partial<AppSettings> {
  const query = new URLSearchParams(search);
  const patch: Partial<AppSettings> = {};
  const entry = query.get('entry');
  if (entry === 'normal' || entry === 'single_chat_tools') patch.entry = entry;
  const corpCode = query.get('corpCode');
  if (corpCode !== null && corpCodePattern.test(corpCode) && corpCode !== useAppSettings.getState().corpCode) {
    patch.corpCode = corpCode;
    patch.agentId = '';
    patch.wxAppId = '';
  }
  const agentCode = query.get('agentCode');
  if (isAgentCode(agentCode) && agentCode !== useAppSettings.getState().agentCode) {
    patch.agentCode = agentCode;
    patch.agentId = '';
  }
  const agentId = query.get('agentId');
  if (agentId) patch.agentId = agentId;
  const wxAppId = query.get('wxAppId');
  if (wxAppId) patch.wxAppId = wxAppId;
  if (Object.keys(patch).length > 0) useAppSettings.getState().update(patch);
  return patch;
}
