import { contract } from '@broker/contract';
import { implementArea } from '../../http/endpoint-route';
import { createShortcutsRepository } from './shortcuts.repository';
import { createShortcutsService } from './shortcuts.service';

/** Pins, recents and saved filters of the signed-in manager (ADR 0049). */
export const shortcutsRoutes = implementArea(contract.shortcuts, (app) => {
  const service = createShortcutsService(createShortcutsRepository(app.database.db));
  return {
    getShortcuts: ({ caller }) => service.all(caller),
    setClientPin: ({ input, caller }) => service.setPin(caller, input.customerId, input.pinned),
    recordClientOpened: ({ input, caller }) => service.recordOpened(caller, input.customerId, input.search),
    forgetRecentSearches: ({ input, caller }) => service.forgetSearches(caller, input.search),
    saveFilter: ({ input, caller }) => service.saveFilter(caller, input),
    deleteSavedFilter: ({ input, caller }) => service.deleteFilter(caller, input.filterId),
  };
});
