-- Keyword grams qualified by their book: `3:654` instead of `654` plus a staff_id entry. btree_gin put
-- staff_id in the same GIN (0011), but a multi-column GIN keeps each column's entries apart, so every
-- search decoded the book's whole 125,000-entry staff_id posting tree next to the grams' own lists
-- (a phone fragment: 1.7 ms of a 1.9 ms page). One entry per (book, gram) holds that book's rows
-- alone: 0.2 ms. Queries test `staff_…(c.staff_id, column) @> staff_…(:staff, :term)` to narrow,
-- then LIKE to confirm.
CREATE OR REPLACE FUNCTION staff_digit_trigrams(staff integer, digits text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(DISTINCT staff::text || ':' || substr(digits, i, 3)), '{}') FROM generate_series(1, char_length(digits) - 2) AS i $$;--> statement-breakpoint
-- A Chinese name's character pairs (as cjk_bigrams, migration 0003), within the book.
CREATE OR REPLACE FUNCTION staff_cjk_bigrams(staff integer, value text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(array_agg(DISTINCT staff::text || ':' || substr(value, i, 2)), '{}') FROM generate_series(1, char_length(value) - 1) AS i $$;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS customer_staff_phone_grams_idx ON customer USING gin (staff_digit_trigrams(staff_id, phone_digits));--> statement-breakpoint
CREATE INDEX IF NOT EXISTS customer_staff_name_cn_grams_idx ON customer USING gin (staff_cjk_bigrams(staff_id, name_cn));--> statement-breakpoint
-- Superseded by customer_staff_name_cn_grams_idx. customer_staff_phone_trgm_idx stays: the KYC
-- search's phone LIKE uses it.
DROP INDEX IF EXISTS customer_staff_name_cn_bigram_idx;--> statement-breakpoint
-- An identity-document tail such as `6547` belongs to ~90 customers of a 1,000,000-customer corp and
-- ~11 of one book: with staff_id in the key, a search's arm reads those 11, not 90 heap rows.
DROP INDEX IF EXISTS customer_id_last4_idx;--> statement-breakpoint
CREATE INDEX IF NOT EXISTS customer_id_last4_idx ON customer (corp_id, id_doc_last4, staff_id);
