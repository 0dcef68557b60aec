-- pg_trgm cannot serve LIKE '%嘉欣%': a two-character pattern holds no complete trigram, and most
-- Chinese-name searches are two characters. Index the name's character pairs instead; queries use
-- cjk_bigrams(name_cn) @> cjk_bigrams(:term) to narrow, then LIKE to confirm.
CREATE OR REPLACE FUNCTION cjk_bigrams(value text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(DISTINCT substr(value, i, 2)), '{}') FROM generate_series(1, char_length(value) - 1) AS i $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS customer_name_cn_bigram_idx ON customer USING gin (cjk_bigrams(name_cn));
