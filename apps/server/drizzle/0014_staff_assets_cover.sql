-- The book's sort-by-assets index, now with every column a keyword tests (issue 8, round five). A
-- keyword matching hundreds of clients (`Rong`: 1,048 of 125,216) was found through its GIN index
-- and then sorted, one heap visit per match (40 ms with the 575 MB table mostly outside shared
-- buffers); walking this index in order and testing each entry without leaving it finds the first
-- page in 1.1 ms. A two-letter keyword, which no GIN can narrow, is counted over it the same way
-- (`Wa`: 0.4–0.6 s of heap visits before). corp_id is included for the identity-document arm;
-- channel, status and held_markets for the list's commonest filters, which a page walks the same way
-- (page 3 of active + dormant clients: 6.5 ms of heap visits).
-- It replaces customer_staff_assets_idx: same key, so every plain walk it served it still serves.
CREATE INDEX IF NOT EXISTS customer_staff_assets_cover_idx ON customer (staff_id, total_assets_hkd DESC, id)
  INCLUDE (corp_id, name_en, name_cn, phone_digits, id_doc_last4, channel, status, held_markets);--> statement-breakpoint
DROP INDEX IF EXISTS customer_staff_assets_idx;
