import { describe, expect, it } from 'vitest';
import { EmulatorState } from './state';
import { BUILT_IN_CORP } from '../../server/src/corps';
import { EMULATOR_DIRECTORY } from './emulator-app';

const MINUTE = 60_000;

function emulatorAt(start: number) {
  const clock = { now: start };
  const state = new EmulatorState({ ...EMULATOR_DIRECTORY, now: () => clock.now });
  return { state, clock };
}

describe('emulator state keeps nothing past its life (ADR 0016)', () => {
  const corpId = BUILT_IN_CORP.corpId;
  const agentId = BUILT_IN_CORP.agents.khzl.agentId;

  it('a code lives five minutes, as in WeCom', () => {
    const { state, clock } = emulatorAt(1_000_000);
    const early = state.issueCode(corpId, agentId, 'chanwaiman');
    const late = state.issueCode(corpId, agentId, 'chanwaiman');
    clock.now += 5 * MINUTE - 1;
    expect(state.redeemCode(early, corpId)?.userid).toBe('chanwaiman');
    clock.now += 2;
    expect(state.redeemCode(late, corpId)).toBeUndefined();
  });

  it('expired codes, access tokens, user tickets and JS-SDK tickets are swept from memory', () => {
    const { state, clock } = emulatorAt(1_000_000);
    state.issueCode(corpId, agentId, 'chanwaiman');
    state.issueAccessToken(corpId, agentId);
    state.issueUserTicket(corpId, 'chanwaiman');
    state.issueTicket('jsapi', corpId, agentId);
    state.issueTicket('agent', corpId, agentId);
    expect(state.heldCredentials()).toEqual({ codes: 1, accessTokens: 1, userTickets: 1, tickets: 2 });

    clock.now += 6 * MINUTE;
    state.sweepExpired();
    // The code is gone; the rest still live.
    expect(state.heldCredentials()).toEqual({ codes: 0, accessTokens: 1, userTickets: 1, tickets: 2 });

    clock.now += 2 * 3600 * 1000;
    state.sweepExpired();
    expect(state.heldCredentials()).toEqual({ codes: 0, accessTokens: 0, userTickets: 0, tickets: 0 });
  });

  it('a stream of abandoned sign-ins does not grow memory without end', () => {
    const { state, clock } = emulatorAt(1_000_000);
    for (let index = 0; index < 1000; index += 1) {
      state.issueCode(corpId, agentId, 'chanwaiman');
      clock.now += 1000;
    }
    // Issuing sweeps on its own at most once a minute: only the last five minutes' codes remain.
    expect(state.heldCredentials().codes).toBeLessThanOrEqual(5 * 60 + 60);
  });
});
