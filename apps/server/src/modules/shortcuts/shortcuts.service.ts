import { MAX_PINNED_CLIENTS, MAX_SAVED_FILTERS, savedFilterSetSchema, type SavedFilter, type SavedFilterSet } from '@broker/contract';
import { ApiError } from '../../http/api-error';
import { scopeOf, type Caller } from '../../http/caller';
import type { ShortcutsRepository } from './shortcuts.repository';

export function createShortcutsService(repository: ShortcutsRepository) {
  /** 404 when the corp has no such client, 403 when a colleague serves it. */
  async function requireOwn(caller: Caller, customerId: number) {
    const owner = await repository.ownerOf(caller.corp.id, customerId);
    if (owner === null) throw ApiError.notFound(`customerId: there is no client ${customerId}`);
    if (owner !== caller.staffId)
      throw ApiError.forbidden(
        `customerId: client ${customerId} is served by another client manager; you can only pin or open your own clients`,
      );
  }

  /** A stored row the contract's schema no longer accepts is left out, not served. */
  const checkedFilters = (rows: { filterId: number; name: string; filters: unknown; updatedAt: number }[]): SavedFilter[] =>
    rows.flatMap((row) => {
      const filters = savedFilterSetSchema.safeParse(row.filters);
      return filters.success ? [{ ...row, filters: filters.data }] : [];
    });

  return {
    async all(caller: Caller) {
      const found = await repository.all(scopeOf(caller));
      return { ...found, savedFilters: checkedFilters(found.savedFilters) };
    },

    async setPin(caller: Caller, customerId: number, pinned: boolean) {
      // Unpinning a client no longer in the book only removes the caller's own row.
      if (pinned) await requireOwn(caller, customerId);
      const list = await repository.setPin(scopeOf(caller), customerId, pinned, (count) => {
        if (count >= MAX_PINNED_CLIENTS)
          throw ApiError.conflict(`pinned: you can pin at most ${MAX_PINNED_CLIENTS} clients; unpin one before pinning another`);
      });
      return { pinned: list };
    },

    async recordOpened(caller: Caller, customerId: number, keyword: string | undefined) {
      await requireOwn(caller, customerId);
      await repository.recordOpened(scopeOf(caller), customerId, keyword);
      return { customerId };
    },

    async forgetSearches(caller: Caller, keyword: string | undefined) {
      return { recentSearches: await repository.forgetSearches(scopeOf(caller), keyword) };
    },

    async saveFilter(caller: Caller, input: { filterId?: number; name: string; filters?: SavedFilterSet }) {
      const { filterId, name, filters } = input;
      if (filterId === undefined && filters === undefined) throw ApiError.validation('body.filters', 'is required for a new saved filter');
      if (filters?.assetMin !== undefined && filters.assetMax !== undefined && filters.assetMin > filters.assetMax)
        throw ApiError.validation('body.filters.assetMin', `must not be more than assetMax (${filters.assetMax})`);
      if (filters?.openDateFrom && filters.openDateTo && filters.openDateFrom > filters.openDateTo)
        throw ApiError.validation('body.filters.openDateFrom', `must not be after openDateTo (${filters.openDateTo})`);
      const row = await repository.saveFilter(scopeOf(caller), input, (existing) => {
        if (filterId !== undefined && !existing.some((saved) => saved.filterId === filterId))
          throw ApiError.notFound(`filterId: you have no saved filter ${filterId}`);
        if (existing.some((saved) => saved.name === name && saved.filterId !== filterId))
          throw ApiError.conflict(`name: you already have a saved filter named "${name}"; choose another name`);
        if (filterId === undefined && existing.length >= MAX_SAVED_FILTERS)
          throw ApiError.conflict(`filters: you can keep at most ${MAX_SAVED_FILTERS} saved filters; delete one first`);
      });
      return { filterId: row.filterId, name: row.name };
    },

    async deleteFilter(caller: Caller, filterId: number) {
      if (!(await repository.deleteFilter(scopeOf(caller), filterId)))
        throw ApiError.notFound(`filterId: you have no saved filter ${filterId}`);
      return { filterId };
    },
  };
}
