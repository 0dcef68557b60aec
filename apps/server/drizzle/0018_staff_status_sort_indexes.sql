-- One status, in each of the client list's three orders (issue 8, round seven). A page filtered by
-- one status walked the book's sort index and tested each entry, which is cheap when that status is
-- spread along the order, but closed clients hold almost nothing and traded long ago: "closed,
-- largest assets first" passed 110,493 entries (22–82 ms), "closed, latest trade first" 185 ms and
-- "closed, newest first" 256 ms (non-covering: a heap visit per entry). With the status second in the
-- key, each reads its page in order: 0.1–0.4 ms. A page of two statuses still walks the sort index.
-- customer_staff_status_idx stays: 7 MB against 46 MB each, for the counts by status.
CREATE INDEX IF NOT EXISTS customer_staff_status_assets_idx ON customer (staff_id, status, total_assets_hkd DESC, id);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS customer_staff_status_open_idx ON customer (staff_id, status, open_date DESC, id);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS customer_staff_status_last_trade_idx ON customer (staff_id, status, last_trade_date DESC NULLS LAST, id);
