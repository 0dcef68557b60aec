import { useTranslation } from '../../shared/i18n/use-translation';
import { ListFooter, nextPageOrThrow } from '../../shared/ui/list-footer';

/** The client list's and search results' footer: the next page as the end comes into view, in the list's words. */
export function ClientListFooter({
  hasMore,
  fetchNextPage,
}: {
  hasMore: boolean;
  fetchNextPage: () => Promise<{ isError: boolean; error: unknown }>;
}) {
  const { t } = useTranslation();
  return (
    <ListFooter
      hasMore={hasMore}
      loadMore={() => nextPageOrThrow(fetchNextPage)}
      labels={{ loading: t('manage.loadingMore'), noMore: t('manage.noMore'), failed: t('manage.loadFailed') }}
      testId="list-footer"
    />
  );
}
