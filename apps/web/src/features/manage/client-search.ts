import { useState } from 'react';
import { useDebouncedValue } from '../../shared/ui/use-debounced-value';

/** How long typing pauses before a search runs: one value for the list's box and the search page. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The one search-as-you-type of the list's box and the search page (ADR 0049): `keyword` is `input` trimmed, once typing pauses. */
export function useSearchAsYouType(initial = '') {
  const [input, setInput] = useState(initial);
  const keyword = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  return { input, setInput, keyword };
}
