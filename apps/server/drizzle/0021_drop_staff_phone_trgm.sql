-- customer_staff_phone_trgm_idx (migration 0011) served the KYC search's phone LIKE (migration 0015
-- kept it for that). KYC now searches through customer search (ADR 0026): a phone of three digits or
-- more is found by customer_staff_phone_grams_idx and confirmed by a LIKE hidden from the trigram
-- indexes; shorter digits are tested entry by entry. No statement reads this index any more, and
-- every customer write still had to update it.
DROP INDEX IF EXISTS customer_staff_phone_trgm_idx;
