import { useUser } from '../session/user-store';
import { draftOwner, lastOwner, sweepDrafts } from './draft-owner';
import { installPageStateRestore, sweepPageState } from './page-state';

/** At start: drop expired drafts and anyone's but the last staff member's here; at another staff member's sign-in, all not theirs. */
export function installDrafts(router: Parameters<typeof installPageStateRestore>[0]) {
  sweepDrafts(lastOwner());
  installPageStateRestore(router);
  return useUser.subscribe((state, previous) => {
    if (!state.userId || state.userId === previous.userId) return;
    const owner = draftOwner();
    sweepDrafts(owner);
    sweepPageState(owner);
  });
}

/** Sign-out on this browser: nothing typed or chosen here stays behind for the next person. */
export function forgetDrafts() {
  sweepDrafts(null);
  sweepPageState(null);
}
