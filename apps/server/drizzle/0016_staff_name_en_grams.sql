-- English names' trigrams qualified by their book, like 0015's grams: `3:ron` instead of `ron` plus
-- btree_gin's separate staff_id entry, whose 125,000-entry posting tree every search decoded (`Xing`:
-- a count went from 7.7 ms to 3.3). Words are the runs of [a-z0-9] in the lower-cased name; a
-- keyword's run occurs inside one of the name's runs whenever the name matches it (ILIKE), so every
-- trigram of the keyword's runs is among the name's. customer_staff_name_en_trgm_idx stays for
-- keywords with no run of three (`ka wa`), which pg_trgm still narrows by its word-edge trigrams.
CREATE OR REPLACE FUNCTION staff_word_trigrams(staff integer, value text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(DISTINCT staff::text || ':' || substr(w, i, 3)), '{}')
          FROM regexp_split_to_table(lower(value), '[^a-z0-9]+') AS w, generate_series(1, char_length(w) - 2) AS i $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS customer_staff_name_en_grams_idx ON customer USING gin (staff_word_trigrams(staff_id, name_en));
