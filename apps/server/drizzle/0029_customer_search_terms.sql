-- Search finds a client however the manager types the name or number (issue 22, ADR 0046).
-- search_terms: the Chinese name folded to Simplified characters, then its Hong Kong Cantonese and
-- pinyin romanisations and initials, computed in JavaScript by one shared function (searchTerms) and
-- written with the name by the seed, the importer and the fill job; null until computed. Both search
-- paths read this column (the book index loads it), so they agree on every row, filled or not.
ALTER TABLE "customer" ADD COLUMN IF NOT EXISTS "search_terms" text;--> statement-breakpoint
-- A name changed by any statement that does not also write the terms loses them (null), so they are
-- never stale: the fill job computes them again. SQL alone cannot romanise.
CREATE OR REPLACE FUNCTION customer_search_terms_invalidate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.name_cn IS DISTINCT FROM OLD.name_cn AND NEW.search_terms IS NOT DISTINCT FROM OLD.search_terms THEN
    NEW.search_terms := NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS customer_search_terms_invalidate ON customer;--> statement-breakpoint
CREATE TRIGGER customer_search_terms_invalidate BEFORE UPDATE OF name_cn ON customer
  FOR EACH ROW EXECUTE FUNCTION customer_search_terms_invalidate();--> statement-breakpoint
-- The rows the fill job still has to compute: every row right after this migration, none once filled.
CREATE INDEX IF NOT EXISTS "customer_search_terms_missing_idx" ON "customer" USING btree ("id") WHERE "search_terms" IS NULL;--> statement-breakpoint
-- A folded Chinese keyword: the folded name's character pairs within the book (as 0015 for name_cn).
-- Null terms are not indexed, so on a database migrated with rows in it this is built empty.
CREATE INDEX IF NOT EXISTS "customer_staff_search_cn_grams_idx" ON "customer" USING gin (staff_cjk_bigrams(staff_id, split_part(search_terms, ' ', 1)));--> statement-breakpoint
-- A romanised keyword: the trigrams of the romanisation words within the book (as 0016 for name_en).
CREATE INDEX IF NOT EXISTS "customer_staff_search_words_idx" ON "customer" USING gin (staff_word_trigrams(staff_id, search_terms));--> statement-breakpoint
-- A customer number in any form (`C00001234`, `c1234`, `00001234`, `1234`): its trailing digits without
-- leading zeros, as customerNoKey computes them. SQL alone, so rows already there are found at once.
CREATE INDEX IF NOT EXISTS "customer_no_key_idx" ON "customer" USING btree ("corp_id", (nullif(ltrim(substring(customer_no from '[0-9]+$'), '0'), '')), "staff_id");
