export { wecomEmulatorPlugin, type WecomEmulatorPluginOptions } from './emulator.plugin';
export { buildEmulatorApp, EMULATOR_DIRECTORY } from './emulator-app';
export { EmulatorState, type EmulatorStats, type EmulatedChatEntry } from './state';
export * from './directory';
export { WecomErr } from './errors';
export { AgentPolicies, DEFAULT_AGENT_POLICY, type AgentPolicy } from './agent-policy';
