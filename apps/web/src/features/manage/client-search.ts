import { useState } from 'react';
import { useDebouncedValue } from '../../shared/ui/use-debounced-value';

/** How long typing pauses before a search runs: one value for the list's box and the search page. */
export const SEARCH_DEBOUNCE_MS = 300;

/**
 * The one search-as-you-type behaviour of the list's box and the search page (ADR 0049): `input` is what
 * the box shows, `keyword` what is searched, once typing has paused for SEARCH_DEBOUNCE_MS (trimmed).
 */
export function useSearchAsYouType(initial = '') {
  const [input, setInput] = useState(initial);
  const keyword = useDebouncedValue(input.trim(), SEARCH_DEBOUNCE_MS);
  return { input, setInput, keyword };
}
