-- pg_trgm backs the partial-match search indexes (names, phone, service notes) created in the next migration.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
